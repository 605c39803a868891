#[derive(Default)]
struct Users;

struct Repo<T>(Vec<T>);

#[restlight::path("/repo")]
impl<T: Send + Sync + 'static> Repo<T> {
    #[get]
    async fn len(&self) -> String {
        self.0.len().to_string()
    }
}

fn main() {}
