use restlight::BeanParam;

#[derive(BeanParam)]
struct Tuple(#[query_param] usize);

#[derive(BeanParam)]
enum Choice {
    A,
}

#[derive(BeanParam)]
struct Generic<T> {
    #[query_param]
    value: T,
}

fn main() {}
