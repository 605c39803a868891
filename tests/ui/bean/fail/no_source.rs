use restlight::BeanParam;

#[derive(BeanParam)]
struct Paging {
    #[query_param]
    limit: usize,
    offset: usize,
}

fn main() {}
