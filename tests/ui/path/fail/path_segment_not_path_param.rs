use restlight::PathSegment;

#[derive(Default)]
struct Cars;

#[restlight::path("/cars/{make}")]
impl Cars {
    #[get]
    async fn by_make(&self, #[query_param] make: PathSegment) -> String {
        make.path().to_owned()
    }

    #[post]
    async fn create(&self, body: Vec<PathSegment>) -> String {
        format!("{}", body.len())
    }
}

fn main() {}
