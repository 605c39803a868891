//! Media types: `Content-Type` and `Accept` parsing and negotiation.
//!
//! Properties: nothing panics; a media range the grammar accepts prints as
//! text that parses back to an equal range; negotiation only ever picks one
//! of the producible types.
#![no_main]

use libfuzzer_sys::fuzz_target;
use restlight_core::media::{negotiate, parse_accept, MediaType};
use restlight_grammar::media;

fuzz_target!(|header: &str| {
    if let Ok(range) = media::parse(header) {
        let printed = range.to_string();
        let again =
            media::parse(&printed).unwrap_or_else(|e| panic!("{printed:?} (printed from {header:?}) fails: {e:?}"));
        assert_eq!(again.to_string(), printed, "printing {header:?} is not stable");
    }
    for range in media::parse_accept(header) {
        let _ = range.to_string();
    }
    if let Ok(media) = MediaType::parse(header) {
        let _ = (media.essence(), media.qs(), media.params().count(), media.header_value());
    }
    let _ = parse_accept(header);

    let producible: Vec<MediaType> = ["application/json", "text/plain;qs=0.5", "application/*+json", "text/html"]
        .into_iter()
        .map(|m| MediaType::parse(m).expect("valid"))
        .collect();
    if let Some(chosen) = negotiate(Some(header), &producible) {
        assert!(producible.iter().any(|p| std::ptr::eq(p, chosen)), "negotiation chose a type not offered");
    }
});
