//! The IP allow-list: exact addresses and CIDR ranges.

use std::fmt;
use std::net::IpAddr;
use std::str::FromStr;

use ipnet::IpNet;

/// An address or a CIDR range of the allow-list: `10.1.2.3`, `10.0.0.0/8`,
/// `::1`, `fd00::/8`.
///
/// ```
/// use restlight_server::IpRange;
/// let range: IpRange = "10.0.0.0/8".parse().unwrap();
/// assert!(range.contains("10.20.30.40".parse().unwrap()));
/// assert!(!range.contains("11.0.0.1".parse().unwrap()));
/// assert!("not an address".parse::<IpRange>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IpRange(IpNet);

impl IpRange {
    /// Whether `ip` is in the range (IPv4-mapped IPv6 addresses count as IPv4).
    #[must_use]
    pub fn contains(&self, ip: IpAddr) -> bool {
        self.0.contains(&ip.to_canonical())
    }
}

impl From<IpAddr> for IpRange {
    fn from(ip: IpAddr) -> Self {
        Self(IpNet::from(ip))
    }
}

/// A text that is neither an IP address nor a CIDR range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IpRangeError {
    input: String,
}

impl fmt::Display for IpRangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is neither an IP address nor a CIDR range such as `10.0.0.0/8`", self.input)
    }
}

impl std::error::Error for IpRangeError {}

impl FromStr for IpRange {
    type Err = IpRangeError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if let Ok(ip) = s.parse::<IpAddr>() {
            return Ok(Self::from(ip));
        }
        s.parse::<IpNet>().map(|net| Self(net.trunc())).map_err(|_| IpRangeError { input: s.to_owned() })
    }
}

impl fmt::Display for IpRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// The allow-list as the accept loop checks it.
#[derive(Debug, Clone, Default)]
pub(crate) struct AllowList(Vec<IpRange>);

impl AllowList {
    pub(crate) fn new(ranges: Vec<IpRange>) -> Self {
        Self(ranges)
    }

    pub(crate) fn allows(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|r| r.contains(ip))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_addresses_and_ranges() {
        let list = AllowList::new(vec![
            "127.0.0.1".parse().unwrap(),
            "10.0.0.0/8".parse().unwrap(),
            "fd00::/8".parse().unwrap(),
        ]);
        for ok in ["127.0.0.1", "10.255.0.1", "fd12::1", "::ffff:10.1.1.1"] {
            assert!(list.allows(ok.parse().unwrap()), "{ok}");
        }
        for no in ["127.0.0.2", "11.0.0.1", "fe80::1", "::1"] {
            assert!(!list.allows(no.parse().unwrap()), "{no}");
        }
    }
}
