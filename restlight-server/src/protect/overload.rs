//! Load shedding under CPU overload, as in the Java original: the CPU is
//! sampled every second from `/proc/stat`; above the threshold a new
//! connection is refused with probability
//! `initial + (max - initial) / (100 - threshold) x (load - threshold)`.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// How often the CPU load is sampled.
const SAMPLE_PERIOD: Duration = Duration::from_secs(1);

/// Load-shedding settings, given to
/// [`Restlight::load_shedding`](crate::Restlight::load_shedding).
///
/// ```
/// use restlight_server::LoadShedding;
/// let shed = LoadShedding::default();
/// assert_eq!(shed.refuse_probability(50), 0.0);
/// assert!((shed.refuse_probability(80) - 0.10).abs() < 1e-9);
/// assert!((shed.refuse_probability(90) - 0.45).abs() < 1e-9);
/// assert!((shed.refuse_probability(100) - 0.80).abs() < 1e-9);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LoadShedding {
    threshold: u8,
    initial: f64,
    max: f64,
}

impl Default for LoadShedding {
    /// Threshold 80 %, initial probability 10 %, maximum 80 %.
    fn default() -> Self {
        Self { threshold: 80, initial: 0.10, max: 0.80 }
    }
}

impl LoadShedding {
    /// The CPU load, in percent (clamped to 0..=99), from which new
    /// connections are refused. Default is 80.
    #[must_use]
    pub fn threshold(mut self, percent: u8) -> Self {
        self.threshold = percent.min(99);
        self
    }

    /// The probability of refusing at the threshold, in percent (0..=100).
    /// Default is 10.
    #[must_use]
    pub fn initial_percent(mut self, percent: u8) -> Self {
        self.initial = f64::from(percent.min(100)) / 100.0;
        self
    }

    /// The probability of refusing at 100 % load, in percent (0..=100).
    /// Default is 80.
    #[must_use]
    pub fn max_percent(mut self, percent: u8) -> Self {
        self.max = f64::from(percent.min(100)) / 100.0;
        self
    }

    /// The probability (0.0 to 1.0) of refusing a new connection at a CPU
    /// load of `load` percent.
    #[must_use]
    pub fn refuse_probability(&self, load: u8) -> f64 {
        let load = load.min(100);
        if load < self.threshold {
            return 0.0;
        }
        let slope = (self.max - self.initial) / f64::from(100 - self.threshold);
        (self.initial + slope * f64::from(load - self.threshold)).clamp(0.0, 1.0)
    }
}

/// The shedder the accept loop consults: the settings, the last load
/// sampled, and a cheap random source.
#[derive(Debug)]
pub(crate) struct Shedder {
    settings: LoadShedding,
    /// Percent plus one; zero while nothing was sampled (the counters
    /// share it so the stats show it).
    load: Arc<AtomicU8>,
    seed: AtomicU64,
}

impl Shedder {
    pub(crate) fn new(settings: LoadShedding, load: Arc<AtomicU8>) -> Self {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0x9E37_79B9_7F4A_7C15, |d| u64::try_from(d.as_nanos() & u128::from(u64::MAX)).unwrap_or(1))
            | 1;
        Self { settings, load, seed: AtomicU64::new(seed) }
    }

    /// Whether to refuse a new connection now.
    pub(crate) fn shed(&self) -> bool {
        let Some(load) = self.load.load(Ordering::Relaxed).checked_sub(1) else { return false };
        let p = self.settings.refuse_probability(load);
        p > 0.0 && self.random() < p
    }

    /// A uniform number in [0, 1) (xorshift64*; quality is not the point).
    fn random(&self) -> f64 {
        let mut x = self.seed.load(Ordering::Relaxed);
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.seed.store(x, Ordering::Relaxed);
        #[allow(clippy::cast_precision_loss)]
        let r = (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1_u64 << 53) as f64;
        r
    }

    /// Samples the CPU every second into the shared load, until dropped.
    pub(crate) async fn sample(load: Arc<AtomicU8>) {
        let mut last = cpu_times();
        let mut ticks = tokio::time::interval(SAMPLE_PERIOD);
        ticks.tick().await;
        loop {
            ticks.tick().await;
            let now = cpu_times();
            if let (Some(a), Some(b)) = (last, now) {
                if let Some(percent) = load_between(a, b) {
                    load.store(percent + 1, Ordering::Relaxed);
                }
            }
            last = now;
        }
    }
}

/// (busy, total) jiffies of all CPUs, from the first line of `/proc/stat`.
fn cpu_times() -> Option<(u64, u64)> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    parse_cpu_line(stat.lines().next()?)
}

fn parse_cpu_line(line: &str) -> Option<(u64, u64)> {
    let mut fields = line.split_whitespace();
    if fields.next()? != "cpu" {
        return None;
    }
    let values: Vec<u64> = fields.take(8).map(str::parse).collect::<Result<_, _>>().ok()?;
    let total: u64 = values.iter().sum();
    // idle + iowait
    let idle = values.get(3).copied().unwrap_or(0) + values.get(4).copied().unwrap_or(0);
    Some((total.saturating_sub(idle), total))
}

fn load_between((busy_a, total_a): (u64, u64), (busy_b, total_b): (u64, u64)) -> Option<u8> {
    let total = total_b.checked_sub(total_a).filter(|t| *t > 0)?;
    let busy = busy_b.saturating_sub(busy_a).min(total);
    u8::try_from(busy * 100 / total).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_proc_stat() {
        let line = "cpu  100 0 50 800 50 0 0 0 0 0";
        assert_eq!(parse_cpu_line(line), Some((150, 1000)));
        assert_eq!(parse_cpu_line("cpu0 1 2 3"), None);
        assert_eq!(load_between((150, 1000), (250, 1100)), Some(100));
        assert_eq!(load_between((150, 1000), (200, 1100)), Some(50));
        assert_eq!(load_between((150, 1000), (150, 1000)), None);
    }

    #[test]
    fn sheds_in_proportion_to_the_load() {
        let load = Arc::new(AtomicU8::new(0));
        let shedder = Shedder::new(LoadShedding::default(), Arc::clone(&load));
        assert!(!(0..1000).any(|_| shedder.shed()), "nothing sampled yet");
        load.store(50 + 1, Ordering::Relaxed);
        assert!(!(0..1000).any(|_| shedder.shed()));
        load.store(90 + 1, Ordering::Relaxed);
        let shed = (0..10_000).filter(|_| shedder.shed()).count();
        assert!((4000..5000).contains(&shed), "{shed} of 10000 at p = 0.45");
    }

    #[test]
    fn reads_this_machine() {
        if std::path::Path::new("/proc/stat").exists() {
            assert!(cpu_times().is_some());
        }
    }
}
