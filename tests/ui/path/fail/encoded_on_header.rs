#[derive(Default)]
struct Notes;

#[restlight::path("/notes")]
impl Notes {
    #[get]
    fn list(&self, #[header_param("X-Tenant")] #[encoded] tenant: String) -> String {
        tenant
    }
}

fn main() {}
