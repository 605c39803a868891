struct Users;

#[restlight::get("/users")]
impl Users {}

fn main() {}
