#[derive(Default)]
struct Auth;

#[restlight::interceptor(includes = ["/api/**"])]
impl Auth {}

fn main() {}
