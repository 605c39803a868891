//! The new-connection rate limit: a token bucket refilled continuously.

use std::sync::Mutex;
use std::time::Instant;

/// Admits at most `per_second` connections a second, in bursts of up to
/// `per_second`.
#[derive(Debug)]
pub(crate) struct RateLimit {
    per_second: f64,
    bucket: Mutex<Bucket>,
}

#[derive(Debug)]
struct Bucket {
    tokens: f64,
    refilled: Instant,
}

impl RateLimit {
    pub(crate) fn new(per_second: u32) -> Self {
        let per_second = f64::from(per_second);
        Self { per_second, bucket: Mutex::new(Bucket { tokens: per_second, refilled: Instant::now() }) }
    }

    /// Takes a token if one is left.
    pub(crate) fn admit(&self) -> bool {
        let mut bucket = self.bucket.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let now = Instant::now();
        let earned = now.duration_since(bucket.refilled).as_secs_f64() * self.per_second;
        bucket.tokens = (bucket.tokens + earned).min(self.per_second);
        bucket.refilled = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn admits_a_burst_of_one_second_then_refuses() {
        let rate = RateLimit::new(5);
        assert_eq!((0..10).filter(|_| rate.admit()).count(), 5);
    }
}
