#[derive(Debug)]
struct DbError;
impl std::fmt::Display for DbError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("db")
    }
}
impl std::error::Error for DbError {}

#[derive(Default)]
struct Notes;

#[restlight::path("/notes")]
impl Notes {
    #[exception_handler]
    async fn on_async(&self, e: &DbError) -> String {
        e.to_string()
    }

    #[exception_handler]
    fn by_value(&self, e: DbError) -> String {
        e.to_string()
    }

    #[exception_handler]
    fn two(&self, e: &DbError, extra: u8) -> String {
        format!("{e}{extra}")
    }

    #[exception_handler]
    #[get("/x")]
    fn also_route(&self, e: &DbError) -> String {
        e.to_string()
    }
}

fn main() {}
