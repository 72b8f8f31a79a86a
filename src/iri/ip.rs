//! The IP-literal and IPv4 host productions of RFC 3986 §3.2.2 (used unchanged by RFC 3987).

use super::chars;

/// `dec-octet`: 0-255 without leading zeros.
fn is_dec_octet(s: &[u8]) -> bool {
    match s {
        [a] => a.is_ascii_digit(),
        [a, b] => (b'1'..=b'9').contains(a) && b.is_ascii_digit(),
        [a, b, c] => {
            s.iter().all(u8::is_ascii_digit)
                && (*a == b'1' || (*a == b'2' && (*b < b'5' || (*b == b'5' && *c <= b'5'))))
        }
        _ => false,
    }
}

/// `IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet`.
pub(crate) fn is_ipv4(s: &[u8]) -> bool {
    let mut n = 0;
    for part in s.split(|&c| c == b'.') {
        n += 1;
        if n > 4 || !is_dec_octet(part) {
            return false;
        }
    }
    n == 4
}

pub(crate) type IpResult = Result<(), (usize, &'static str)>;

/// `IPv6address` (RFC 3986 §3.2.2, all nine forms): eight 16-bit groups, or fewer with one `::`,
/// the last 32 bits optionally written as an `IPv4address`. Errors carry the offset at fault.
pub(crate) fn ipv6(s: &[u8]) -> IpResult {
    let n = s.len();
    if n == 0 {
        return Err((0, "it is empty"));
    }
    let mut groups = 0;
    let mut double = false;
    let mut i = 0;
    if s.starts_with(b"::") {
        double = true;
        i = 2;
    } else if s[0] == b':' {
        return Err((0, "it cannot start with a single ':'"));
    }
    while i < n {
        let start = i;
        while i < n && i - start < 5 && chars::is_hexdig(s[i]) {
            i += 1;
        }
        if i < n && s[i] == b'.' {
            // The last 32 bits as an IPv4 address (ls32).
            let end = s[start..]
                .iter()
                .position(|&c| c == b':')
                .map_or(n, |k| start + k);
            if end != n || !is_ipv4(&s[start..]) {
                return Err((
                    start,
                    "the embedded IPv4 address must be four decimal numbers 0-255 without leading zeros, at the end",
                ));
            }
            groups += 2;
            break;
        }
        let digits = i - start;
        if digits == 0 {
            return Err((start, "expected a group of 1 to 4 hex digits"));
        }
        if digits > 4 {
            return Err((start + 4, "a group has at most 4 hex digits"));
        }
        groups += 1;
        if groups > 8 {
            return Err((start, "it has more than 8 groups"));
        }
        if i == n {
            break;
        }
        if s[i] != b':' {
            return Err((i, "expected a hex digit or ':'"));
        }
        if i + 1 < n && s[i + 1] == b':' {
            if double {
                return Err((i, "'::' may appear only once"));
            }
            double = true;
            i += 2;
        } else {
            i += 1;
            if i == n {
                return Err((i - 1, "it cannot end with a single ':'"));
            }
        }
    }
    if double && groups > 7 {
        return Err((0, "with '::' it must have fewer than 8 groups"));
    }
    if !double && groups != 8 {
        return Err((n, "it must have 8 groups of hex digits (or use '::')"));
    }
    Ok(())
}

/// `IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`.
pub(crate) fn ipvfuture(s: &[u8]) -> IpResult {
    let mut i = 1;
    while i < s.len() && chars::is_hexdig(s[i]) {
        i += 1;
    }
    if i == 1 {
        return Err((i, "'v' must be followed by a hex version number"));
    }
    if i >= s.len() || s[i] != b'.' {
        return Err((i, "the version number must be followed by '.'"));
    }
    i += 1;
    if i >= s.len() {
        return Err((i, "the address after '.' is empty"));
    }
    while i < s.len() {
        if !(chars::is_unreserved_or_sub_delim(s[i]) || s[i] == b':') {
            return Err((
                i,
                "only ASCII letters, digits, '-._~', sub-delims and ':' are allowed",
            ));
        }
        i += 1;
    }
    Ok(())
}
