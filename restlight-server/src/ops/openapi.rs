//! [`OpenApiDocs`]: the application's OpenAPI document and Swagger UI,
//! served as ordinary builder routes left out of the document itself.
//!
//! The document is generated from the routes served at the moment it is
//! asked for (routes added while serving included), so a request to any
//! other route pays nothing for it. The Swagger UI's files (swagger-ui-dist
//! from npm, Apache-2.0, vendored under `assets/swagger-ui` with their
//! license) are compiled into the binary: no CDN, no download at build
//! time, so the UI works offline.

use std::sync::{Arc, OnceLock};

use http::header::{HeaderValue, CACHE_CONTROL, CONTENT_TYPE};
use http::StatusCode;
use restlight_core::openapi::OpenApiVersion;
use restlight_core::{get, App, Body, IntoResponse, Response, Route};

/// The default path of the JSON document.
pub const DEFAULT_JSON_PATH: &str = "/openapi.json";
/// The default path of the YAML document.
pub const DEFAULT_YAML_PATH: &str = "/openapi.yaml";
/// The default path of the Swagger UI.
pub const DEFAULT_UI_PATH: &str = "/swagger-ui";

const BUNDLE: &[u8] = include_bytes!("../../assets/swagger-ui/swagger-ui-bundle.js");
const CSS: &[u8] = include_bytes!("../../assets/swagger-ui/swagger-ui.css");

/// The OpenAPI endpoints (feature `openapi`): `GET /openapi.json`,
/// `GET /openapi.yaml` and the Swagger UI under `/swagger-ui`, each path
/// settable and each endpoint off with `None`. Off unless
/// [`Restlight::openapi`](crate::Restlight::openapi) (or an `[openapi]`
/// table of the configuration file, or `RESTLIGHT_SERVER_OPENAPI_ENABLED=true`)
/// turns them on.
///
/// ```
/// use restlight_server::{OpenApiDocs, Restlight};
/// let server = Restlight::new().openapi(OpenApiDocs::new().title("Users").api_version("1.2.0"));
/// # let _ = server;
/// ```
#[derive(Debug, Clone)]
pub struct OpenApiDocs {
    pub(crate) json_path: Option<String>,
    pub(crate) yaml_path: Option<String>,
    pub(crate) ui_path: Option<String>,
    pub(crate) version: OpenApiVersion,
    pub(crate) title: String,
    pub(crate) api_version: String,
    pub(crate) description: Option<String>,
}

impl Default for OpenApiDocs {
    fn default() -> Self {
        Self::new()
    }
}

impl OpenApiDocs {
    /// The endpoints at their default paths, writing OpenAPI 3.1.
    #[must_use]
    pub fn new() -> Self {
        Self {
            json_path: Some(DEFAULT_JSON_PATH.to_owned()),
            yaml_path: Some(DEFAULT_YAML_PATH.to_owned()),
            ui_path: Some(DEFAULT_UI_PATH.to_owned()),
            version: OpenApiVersion::V3_1,
            title: "Restlight application".to_owned(),
            api_version: "0.0.0".to_owned(),
            description: None,
        }
    }

    /// Where the JSON document is served; `None`: not served. Default: `/openapi.json`.
    #[must_use]
    pub fn json_path(mut self, path: Option<&str>) -> Self {
        self.json_path = path.map(str::to_owned);
        self
    }

    /// Where the YAML document is served; `None`: not served. Default: `/openapi.yaml`.
    #[must_use]
    pub fn yaml_path(mut self, path: Option<&str>) -> Self {
        self.yaml_path = path.map(str::to_owned);
        self
    }

    /// Where the Swagger UI is served (its page; its files below it);
    /// `None`: not served. It reads the JSON document, so it needs
    /// [`json_path`](Self::json_path) too. Default: `/swagger-ui`.
    #[must_use]
    pub fn ui_path(mut self, path: Option<&str>) -> Self {
        self.ui_path = path.map(str::to_owned);
        self
    }

    /// The OpenAPI version written. Default: [`OpenApiVersion::V3_1`].
    #[must_use]
    pub fn version(mut self, version: OpenApiVersion) -> Self {
        self.version = version;
        self
    }

    /// The document's `info.title`. Default: `Restlight application`.
    #[must_use]
    pub fn title(mut self, title: &str) -> Self {
        title.clone_into(&mut self.title);
        self
    }

    /// The document's `info.version`, the API's version. Default: `0.0.0`.
    #[must_use]
    pub fn api_version(mut self, version: &str) -> Self {
        version.clone_into(&mut self.api_version);
        self
    }

    /// The document's `info.description`. Default: none.
    #[must_use]
    pub fn description(mut self, description: &str) -> Self {
        self.description = Some(description.to_owned());
        self
    }

    fn document(&self, app: &App) -> restlight_core::openapi::OpenApi {
        let doc = app.openapi().title(&self.title).version(&self.api_version);
        match &self.description {
            Some(d) => doc.description(d),
            None => doc,
        }
    }

    /// The routes, answering from the application in `cell` once built.
    pub(crate) fn routes(&self, cell: &Arc<OnceLock<App>>) -> Vec<Route> {
        let mut routes = Vec::new();
        let this = Arc::new(self.clone());
        if let Some(path) = &self.json_path {
            let (this, cell) = (Arc::clone(&this), Arc::clone(cell));
            routes.push(get(path.as_str()).produces("application/json").undocumented().handle(move |_| {
                let answer = match cell.get() {
                    Some(app) => typed(this.document(app).to_json(this.version), "application/json"),
                    None => StatusCode::SERVICE_UNAVAILABLE.into_response(),
                };
                async move { answer }
            }));
        }
        if let Some(path) = &self.yaml_path {
            let (this, cell) = (Arc::clone(&this), Arc::clone(cell));
            routes.push(get(path.as_str()).produces("application/yaml").undocumented().handle(move |_| {
                let answer = match cell.get() {
                    Some(app) => typed(this.document(app).to_yaml(this.version), "application/yaml"),
                    None => StatusCode::SERVICE_UNAVAILABLE.into_response(),
                };
                async move { answer }
            }));
        }
        if let (Some(ui), Some(json)) = (&self.ui_path, &self.json_path) {
            let base = ui.trim_end_matches('/').to_owned();
            let page = index_html(&base, json, &self.title);
            routes.push(get(base.as_str()).produces("text/html").undocumented().handle(move |_| {
                let page = page.clone();
                async move { typed(page, "text/html; charset=utf-8") }
            }));
            routes.push(
                get(format!("{base}/swagger-ui-bundle.js"))
                    .undocumented()
                    .handle(|_| async { asset(BUNDLE, "text/javascript; charset=utf-8") }),
            );
            routes.push(
                get(format!("{base}/swagger-ui.css"))
                    .undocumented()
                    .handle(|_| async { asset(CSS, "text/css; charset=utf-8") }),
            );
        }
        routes
    }
}

fn typed(body: String, media: &'static str) -> Response {
    let mut res = Response::new(Body::from(body));
    res.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static(media));
    res
}

fn asset(bytes: &'static [u8], media: &'static str) -> Response {
    let mut res = Response::new(Body::from(bytes::Bytes::from_static(bytes)));
    res.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static(media));
    res.headers_mut().insert(CACHE_CONTROL, HeaderValue::from_static("public, max-age=86400"));
    res
}

/// The UI's page: the vendored bundle and style, pointed at the document.
fn index_html(base: &str, json: &str, title: &str) -> String {
    let esc = |s: &str| s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;");
    let url = serde_json::Value::from(json).to_string().replace('<', "\\u003c");
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{title}</title>\n\
         <link rel=\"stylesheet\" href=\"{base}/swagger-ui.css\">\n</head>\n<body>\n<div id=\"swagger-ui\"></div>\n\
         <script src=\"{base}/swagger-ui-bundle.js\"></script>\n\
         <script>window.ui = SwaggerUIBundle({{ url: {url}, dom_id: '#swagger-ui', deepLinking: true }});</script>\n\
         </body>\n</html>\n",
        title = esc(title),
        base = esc(base),
    )
}
