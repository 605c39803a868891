#[derive(Default)]
struct Users;

#[restlight::path("/users")]
#[no_interceptors]
#[no_interceptors]
impl Users {
    #[get]
    #[compress(false)]
    #[compress(true)]
    async fn list(&self, #[query_param] #[default_value("1")] #[default_value("2")] page: usize) -> String {
        page.to_string()
    }

    #[exception_handler]
    #[exception_handler]
    fn on_error(&self, e: &std::io::Error) -> String {
        e.to_string()
    }
}

fn main() {}
