//! One request through the application: route, read, run, respond.

use std::net::SocketAddr;
use std::time::Instant;

use bytes::Bytes;
use std::sync::Arc;

use http::header::{HeaderValue, ACCEPT, ACCEPT_ENCODING, ALLOW, CONTENT_LENGTH, CONTENT_TYPE, HOST};
use http::{Request, StatusCode, Version};
use http_body_util::{BodyExt, Limited};

use crate::app::App;
use crate::body::Body;
use crate::codec::{self, EntityCodecs};
use crate::compress;
use crate::error::{BoxError, HttpError};
use crate::executor::ReceivedAt;
use crate::format::FromUrl;
use crate::media::{negotiate, MediaType};
use crate::request::RequestContext;
use crate::response::{DefaultContentType, IntoResponse, Response, TEXT_PLAIN_UTF8};
use crate::router::{Lookup, RouteError};
use crate::stream::BodyStream;
use crate::table::CompiledRoute;

impl App {
    /// Serves one request: routing (404, 405, 415, 406), reading the body
    /// (413 past the limit), the handler on its executor, the encoding of
    /// the returned value. Every failure becomes a problem-details response;
    /// a panicking handler gives 500.
    pub async fn dispatch<B>(&self, req: Request<B>, remote: Option<SocketAddr>) -> Response
    where
        B: http_body::Body<Data = Bytes> + Send + 'static,
        B::Error: Into<BoxError>,
    {
        match &self.inner.layers {
            Some(stack) => crate::layer::call(stack, req.map(Body::from_stream), remote).await,
            None => self.dispatch_filtered(req, remote).await,
        }
    }

    /// [`dispatch`](Self::dispatch) after the tower layers.
    pub(crate) async fn dispatch_filtered<B>(&self, req: Request<B>, remote: Option<SocketAddr>) -> Response
    where
        B: http_body::Body<Data = Bytes> + Send + 'static,
        B::Error: Into<BoxError>,
    {
        if self.inner.filters.is_empty() {
            return self.dispatch_routed(req, remote).await;
        }
        crate::filter::Next::start(self.clone(), remote).run(req.map(Body::from_stream)).await
    }

    /// [`dispatch`](Self::dispatch) after the filters.
    pub(crate) async fn dispatch_routed<B>(&self, req: Request<B>, remote: Option<SocketAddr>) -> Response
    where
        B: http_body::Body<Data = Bytes> + Send + 'static,
        B::Error: Into<BoxError>,
    {
        let (parts, body) = req.into_parts();
        let received = parts.extensions.get::<ReceivedAt>().map_or_else(Instant::now, |r| r.0);
        // The URL's format (`?format=`, `/x.json`; off by default) stands for Accept.
        let mut url = match self.inner.url_format.resolve(&parts.uri, &self.inner.codecs) {
            Ok(url) => url,
            Err(e) => return finish_error(e, parts.headers.get(ACCEPT).and_then(|v| v.to_str().ok())),
        };
        let mut accept = url.accept().or_else(|| parts.headers.get(ACCEPT).cloned());
        let accept_encoding = parts.headers.get(ACCEPT_ENCODING).cloned();
        let accept_str = accept.as_ref().and_then(|v| v.to_str().ok());
        if parts.version == Version::HTTP_11 && !parts.headers.contains_key(HOST) && parts.uri.authority().is_none() {
            return finish_error(HttpError::bad_request("HTTP/1.1 request without a Host header"), accept_str);
        }
        let content_type = parts.headers.get(CONTENT_TYPE).map(|v| v.to_str().unwrap_or("\u{0}"));
        let path = parts.uri.path();
        // The table of this moment; the matched route is kept for the rest
        // of the request, whatever changes meanwhile.
        let table = self.inner.table.load();
        let mut lookup = table.router.lookup(&parts.method, &path[..url.path_len], content_type, accept_str);
        if url.stripped && matches!(lookup, Err(RouteError::NotFound)) {
            // No route without the suffix: route the path as sent.
            url = FromUrl { path_len: path.len(), codec: None, stripped: false };
            accept = parts.headers.get(ACCEPT).cloned();
            let accept_str = accept.as_ref().and_then(|v| v.to_str().ok());
            lookup = table.router.lookup(&parts.method, path, content_type, accept_str);
        }
        let accept_str = accept.as_ref().and_then(|v| v.to_str().ok());
        let found = match lookup {
            Ok(Lookup::Matched(m)) => m,
            Ok(Lookup::Options { allow }) => {
                let mut res = Response::new(Body::empty());
                res.headers_mut().insert(ALLOW, allow);
                res.headers_mut().insert(CONTENT_LENGTH, HeaderValue::from_static("0"));
                return res;
            }
            Err(e) => {
                let e = route_error(e, &parts.method, parts.uri.path(), &self.inner.codecs);
                return finish_error(e, accept_str);
            }
        };
        let route = Arc::clone(&table.routes[found.index]);
        let produce = found.produce.cloned();
        let head = found.head_from_get;
        let (params, matrix) = (found.params, found.matrix);
        drop(table);
        let mut ctx = if route.stream_body {
            match BodyStream::for_request(body, &parts.headers, route.stream_limit) {
                Ok(stream) => RequestContext::new(parts, Bytes::new(), params, matrix, remote, produce.clone())
                    .with_body_stream(stream),
                Err(e) => return finish_error(e, accept_str),
            }
        } else {
            let limit = route.info.max_body;
            let body = match read_body(body, &parts.headers, limit)
                .await
                .and_then(|b| compress::request(&parts.headers, b, limit))
            {
                Ok(b) => b,
                Err(e) => return finish_error(e, accept_str),
            };
            RequestContext::new(parts, body, params, matrix, remote, produce.clone())
        };
        let forced_read = route.codecs.request.as_ref().or(url.codec.as_ref()).cloned();
        ctx.codecs = Some(EntityCodecs { registry: Arc::clone(&self.inner.codecs), forced: forced_read });
        let res = run(&route, ctx, received).await;
        let accept = accept.as_ref().and_then(|v| v.to_str().ok());
        let forced = route.codecs.response.as_ref().or(url.codec.as_ref());
        let res = codec::respond(res, &self.inner.codecs, &route.codecs.produces, forced, accept);
        let res = finish(res, produce.as_ref(), accept, head);
        let mut res = if route.compress {
            compress::response(res, accept_encoding.as_ref(), self.inner.compression)
        } else {
            res
        };
        res.extensions_mut().insert(crate::MatchedRoute(route));
        res
    }
}

async fn run(route: &CompiledRoute, ctx: RequestContext, received: Instant) -> Response {
    let task = route.handler.call(ctx);
    let res = route.exec.run(task, received, route.info.timeout).await;
    if res.status() == StatusCode::INTERNAL_SERVER_ERROR {
        if let Some(e) = res.extensions().get::<HttpError>() {
            tracing::error!(route = %route.info.name, location = %route.info.location, "{}", e.detail());
        }
    }
    res
}

async fn read_body<B>(body: B, headers: &http::HeaderMap, limit: usize) -> Result<Bytes, HttpError>
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    if body.is_end_stream() {
        return Ok(Bytes::new());
    }
    let too_large = || {
        HttpError::payload_too_large(format!("the request entity is larger than the limit of {limit} bytes"))
            .with("limit", limit)
    };
    let declared = headers.get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return Err(too_large());
    }
    match Limited::new(body, limit).collect().await {
        Ok(collected) => Ok(collected.to_bytes()),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => Err(too_large()),
        Err(e) if e.is::<crate::BodyTimeout>() => Err(crate::timeout::request_timeout(&*e)),
        Err(e) => Err(HttpError::bad_request(format!("the request body could not be read: {e}"))),
    }
}

fn route_error(e: RouteError, method: &http::Method, path: &str, codecs: &codec::Codecs) -> HttpError {
    match e {
        RouteError::NotFound => HttpError::not_found(format!("no route for `{path}`")).with("path", path),
        RouteError::MethodNotAllowed { allow } => {
            let allowed = allow.to_str().unwrap_or("").to_owned();
            HttpError::method_not_allowed(format!("method {method} is not allowed on `{path}`; allowed: {allowed}"))
                .with("path", path)
                .with("allow", allowed)
                .with_header(ALLOW, allow)
        }
        RouteError::UnsupportedMediaType { content_type, consumable } => {
            let list: Vec<String> = consumable.iter().map(ToString::to_string).collect();
            HttpError::unsupported_media_type(format!(
                "Content-Type `{content_type}` is not consumed by `{path}`; consumable: {}",
                list.join(", ")
            ))
            .with("contentType", content_type)
            .with("consumable", list)
        }
        RouteError::NotAcceptable { accept, producible } => {
            // Routes without `produces` write with any codec.
            let producible = if producible.is_empty() { codecs.writable() } else { &producible };
            let list: Vec<String> = producible.iter().map(ToString::to_string).collect();
            HttpError::not_acceptable(format!(
                "nothing `{path}` produces is acceptable to `{accept}`; producible: {}",
                list.join(", ")
            ))
            .with("accept", accept)
            .with("producible", list)
        }
        RouteError::BadPath { reason } => HttpError::bad_request(format!("malformed request path: {reason}")),
        #[allow(unreachable_patterns)]
        other => HttpError::bad_request(other.to_string()),
    }
}

fn finish_error(e: HttpError, accept: Option<&str>) -> Response {
    finish(e.into_response(), None, accept, false)
}

/// Encodes a deferred entity, fills in `Content-Type`, adapts problem
/// details to a text-only client, and empties the body of a HEAD answer.
fn finish(mut res: Response, produce: Option<&MediaType>, accept: Option<&str>, head: bool) -> Response {
    let produces = produce.map(std::slice::from_ref).unwrap_or_default();
    res = codec::respond(res, codec::Codecs::shared(), produces, None, accept);
    if let Some(error) = res.extensions().get::<HttpError>() {
        if wants_text(accept) {
            let text = codec::problem_text(error);
            *res.body_mut() = text;
            res.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static(TEXT_PLAIN_UTF8));
        }
    }
    if !res.headers().contains_key(CONTENT_TYPE) && res.body().exact_len() != Some(0) {
        let value = match (produce, res.extensions().get::<DefaultContentType>()) {
            (Some(p), _) if !p.is_wildcard() => Some(p.header_value().clone()),
            (_, Some(DefaultContentType(d))) => Some(HeaderValue::from_static(d)),
            _ => None,
        };
        if let Some(v) = value {
            res.headers_mut().insert(CONTENT_TYPE, v);
        }
    }
    if head {
        if let Some(len) = res.body().exact_len() {
            res.headers_mut().insert(CONTENT_LENGTH, HeaderValue::from(len));
        }
        *res.body_mut() = Body::empty();
    }
    res
}

/// A client that accepts text but neither JSON nor problem+json.
fn wants_text(accept: Option<&str>) -> bool {
    use std::sync::OnceLock;
    static CHOICES: OnceLock<Vec<MediaType>> = OnceLock::new();
    let Some(accept) = accept else { return false };
    let choices = CHOICES.get_or_init(|| {
        ["application/problem+json", "application/json", "text/plain"]
            .iter()
            .filter_map(|m| MediaType::parse(m).ok())
            .collect()
    });
    negotiate(Some(accept), choices).is_some_and(|m| m.essence() == "text/plain")
}
