use restlight::BeanParam;

struct Db;

#[derive(BeanParam)]
struct Fields {
    #[context]
    db: Db,
    #[query_param]
    #[header_param]
    twice: String,
    #[path_param]
    #[default_value("1")]
    id: u64,
    #[header_param("X Tenant")]
    tenant: String,
}

fn main() {}
