//! The [`Restlight`] setters of connection protection.

use crate::builder::Restlight;
use crate::protect::{IpRange, LoadShedding};

impl Restlight {
    /// The most connections open at once; a connection beyond it is closed
    /// right after it is accepted (counted as
    /// [`Refusal::ConnectionLimit`](crate::Refusal::ConnectionLimit)).
    ///
    /// Default is no limit (the process's file-descriptor limit applies).
    pub fn max_connections(mut self, max: usize) -> Self {
        self.options.protection.max_connections = Some(max);
        self
    }

    /// The most new connections accepted per second (a token bucket that
    /// allows a burst of one second's worth); others are closed at once
    /// (counted as [`Refusal::RateLimit`](crate::Refusal::RateLimit)).
    /// `None` turns the limit off.
    ///
    /// Default is 20,000 per second.
    pub fn max_connections_per_second(mut self, per_second: Option<u32>) -> Self {
        self.options.protection.max_connections_per_second = per_second;
        self
    }

    /// Serves only peers whose address is in one of `ranges` (exact
    /// addresses or CIDR ranges, see [`IpRange`]); others are closed at once
    /// (counted as [`Refusal::AllowList`](crate::Refusal::AllowList)).
    /// IPv4-mapped IPv6 peers are matched as IPv4. An empty list refuses
    /// everyone.
    ///
    /// ```
    /// # fn main() -> Result<(), restlight_server::IpRangeError> {
    /// let server = restlight_server::Restlight::new()
    ///     .allow_ips(["127.0.0.1".parse()?, "10.0.0.0/8".parse()?]);
    /// # let _ = server; Ok(()) }
    /// ```
    ///
    /// Default is no allow-list: every peer is served.
    pub fn allow_ips(mut self, ranges: impl IntoIterator<Item = IpRange>) -> Self {
        self.options.protection.allow = Some(ranges.into_iter().collect());
        self
    }

    /// Refuses new connections at random while the CPU is overloaded (see
    /// [`LoadShedding`] for the model), counted as
    /// [`Refusal::Overload`](crate::Refusal::Overload). The load is read
    /// from `/proc/stat` every second; where that file does not exist the
    /// setting does nothing.
    ///
    /// Default is off.
    pub fn load_shedding(mut self, settings: LoadShedding) -> Self {
        self.options.protection.load_shedding = Some(settings);
        self
    }
}
