#[derive(Default)]
struct Users;

struct Filter {
    _name: String,
}

#[restlight::path("/users")]
impl Users {
    #[get]
    async fn list(&self, #[query_param] filter: Option<Filter>) -> String {
        filter.map(|f| f._name).unwrap_or_default()
    }
}

fn main() {}
