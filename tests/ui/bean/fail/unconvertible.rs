use restlight::BeanParam;

struct Point {
    x: i32,
}

#[derive(BeanParam)]
struct Query {
    #[query_param]
    at: Point,
}

fn main() {}
