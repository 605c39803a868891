#[derive(Default)]
struct Files;

#[restlight::rest_controller]
#[request_mapping("/files")]
impl Files {
    #[get_mapping("/**/meta")]
    async fn meta(&self) -> String {
        String::new()
    }

    #[get_mapping("/{*path}/raw")]
    async fn raw(&self, #[path_variable] path: String) -> String {
        path
    }
}

#[derive(Default)]
struct Assets;

#[restlight::rest_controller]
#[request_mapping("/assets/**")]
impl Assets {
    #[get_mapping("/logo")]
    async fn logo(&self) -> String {
        String::new()
    }
}

#[restlight::get_mapping("/a/**/b")]
async fn free() -> String {
    String::new()
}

fn main() {}
