struct Tenant;

#[derive(Default)]
struct Api;

#[restlight::path("/api")]
impl Api {
    #[get]
    async fn get(&self, #[resolve] #[default_value("acme")] tenant: Tenant) -> &'static str {
        let _ = tenant;
        "ok"
    }

    #[post]
    async fn post(&self, #[resolve] #[query_param] tenant: Tenant) -> &'static str {
        let _ = tenant;
        "ok"
    }
}

fn main() {}
