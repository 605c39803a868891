#[derive(Default)]
struct Users;

#[restlight::path("/users")]
impl Users {
    #[get]
    async fn list<T: std::str::FromStr>(&self, #[query_param] limit: T) -> &'static str {
        let _ = limit;
        "users"
    }
}

fn main() {}
