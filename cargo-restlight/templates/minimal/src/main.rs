use restlight::prelude::*;

{{hello_resource}}

fn main() -> restlight::Result<()> {
    // Serves on port 8080 until Ctrl-C: curl 'localhost:8080/hello?name=you'
    Restlight::new().port(8080).run()
}
