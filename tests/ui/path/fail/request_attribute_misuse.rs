use std::rc::Rc;

#[derive(Clone)]
struct Principal;

#[derive(Default)]
struct Me;

#[restlight::path("/me")]
impl Me {
    #[get]
    #[path("/named")]
    async fn named(&self, #[request_attribute("principal")] p: Principal) -> &'static str {
        let _ = p;
        "named"
    }

    #[get]
    #[path("/mutable")]
    async fn mutable(&self, #[request_attribute] p: &mut Principal) -> &'static str {
        let _ = p;
        "mutable"
    }

    #[get]
    #[path("/defaulted")]
    async fn defaulted(&self, #[request_attribute] #[default_value("x")] p: Option<Principal>) -> &'static str {
        let _ = p;
        "defaulted"
    }
}

#[derive(Default)]
struct Local;

#[restlight::path("/local")]
impl Local {
    #[get]
    async fn local(&self, #[request_attribute] count: Rc<u32>) -> String {
        count.to_string()
    }
}

fn main() {}
