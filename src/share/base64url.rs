//! Base64url without padding (RFC 4648 §5): the alphabet `A–Z a–z 0–9 - _`, safe in a URL
//! fragment as it is. Forty lines of our own instead of a crate.

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Why text is not base64url.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Base64Error {
    /// The byte at this 0-based offset is not in the alphabet.
    Invalid {
        /// Offset of the offending byte.
        offset: usize,
    },
    /// The length leaves one character over (4n + 1): the text was cut.
    Truncated,
}

/// Encode bytes, no padding.
pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk.first().copied().unwrap_or(0),
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        // 2, 3 or 4 characters for 1, 2 or 3 bytes.
        for i in 0..=chunk.len() {
            let sextet = (n >> (18 - 6 * i)) & 0x3f;
            out.push(char::from(ALPHABET[sextet as usize]));
        }
    }
    out
}

/// Decode base64url; trailing `=` padding is tolerated (some tools add it), leftover bits of
/// the last character are ignored.
pub fn decode(text: &str) -> Result<Vec<u8>, Base64Error> {
    let body = text.trim_end_matches('=');
    if body.len() % 4 == 1 {
        // Report a bad character first: it says more than "cut short".
        return Err(first_invalid(body).unwrap_or(Base64Error::Truncated));
    }
    let mut out = Vec::with_capacity(body.len() / 4 * 3 + 2);
    let mut acc: u32 = 0;
    let mut bits = 0u32;
    for (offset, c) in body.bytes().enumerate() {
        acc = (acc << 6) | u32::from(sextet(c).ok_or(Base64Error::Invalid { offset })?);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Ok(out)
}

fn first_invalid(body: &str) -> Option<Base64Error> {
    body.bytes()
        .position(|c| sextet(c).is_none())
        .map(|offset| Base64Error::Invalid { offset })
}

fn sextet(c: u8) -> Option<u8> {
    match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'-' => Some(62),
        b'_' => Some(63),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 4648 §10 test vectors, padding removed (§3.2 allows it for base64url).
    const VECTORS: [(&str, &str); 7] = [
        ("", ""),
        ("f", "Zg"),
        ("fo", "Zm8"),
        ("foo", "Zm9v"),
        ("foob", "Zm9vYg"),
        ("fooba", "Zm9vYmE"),
        ("foobar", "Zm9vYmFy"),
    ];

    #[test]
    fn base64url_rfc4648_vectors() {
        for (plain, encoded) in VECTORS {
            assert_eq!(encode(plain.as_bytes()), encoded);
            assert_eq!(decode(encoded).unwrap(), plain.as_bytes());
        }
    }

    #[test]
    fn base64url_uses_the_url_alphabet() {
        // 0xfb 0xff is "+/8" in standard base64.
        assert_eq!(encode(&[0xfb, 0xff]), "-_8");
        assert_eq!(decode("-_8").unwrap(), [0xfb, 0xff]);
        assert_eq!(decode("+/8"), Err(Base64Error::Invalid { offset: 0 }));
    }

    #[test]
    fn base64url_every_byte_round_trips() {
        let all: Vec<u8> = (0..=255).collect();
        for len in 0..all.len() {
            let slice = &all[..len];
            assert_eq!(decode(&encode(slice)).unwrap(), slice);
        }
    }

    #[test]
    fn base64url_tolerates_padding_and_reports_damage() {
        assert_eq!(decode("Zm8=").unwrap(), b"fo");
        assert_eq!(decode("Zg==").unwrap(), b"f");
        assert_eq!(decode("Zm9vY"), Err(Base64Error::Truncated));
        assert_eq!(decode("Zm 9v"), Err(Base64Error::Invalid { offset: 2 }));
        assert_eq!(decode("Zm9é"), Err(Base64Error::Invalid { offset: 3 }));
        // A bad character in a text whose length is also wrong is named, not "cut short".
        assert_eq!(decode("Zm9v!"), Err(Base64Error::Invalid { offset: 4 }));
    }
}
