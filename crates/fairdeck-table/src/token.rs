//! Bearer tokens: 256 random bits given once to their holder, stored only as
//! their SHA-256, and compared in constant time.

use core::fmt;

use rand_core::TryCryptoRng;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::Error;
use crate::hex;

/// A token as handed to its holder: 64 lowercase hex digits (256 bits).
/// It serializes as that text (to hand it out once); `Debug` hides it.
#[derive(Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Token(String);

impl Token {
    /// Draws a fresh token from `rng` (the service passes the operating
    /// system's source). O(1).
    ///
    /// # Errors
    ///
    /// [`Error::Entropy`] if the source fails.
    pub fn draw<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<Token, Error> {
        Ok(Token(hex::encode(&hex::draw(rng)?)))
    }

    /// The token's text, to hand to its holder.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// What the service stores: SHA-256 of the token's text.
    pub fn hash(&self) -> TokenHash {
        TokenHash::of(&self.0)
    }
}

impl fmt::Debug for Token {
    /// Never prints the token.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(…)")
    }
}

/// SHA-256 of a token's text: all the service keeps of it.
#[derive(Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenHash(#[serde(with = "hex::bytes32")] [u8; 32]);

impl TokenHash {
    /// The hash of a presented token's text (any text: a wrong one simply
    /// does not match).
    pub fn of(text: &str) -> TokenHash {
        TokenHash(Sha256::digest(text.as_bytes()).into())
    }

    /// Whether `presented` is the token this hash was made from. The hashes
    /// are compared in constant time, so the time taken does not tell how
    /// many leading bytes matched.
    pub fn admits(&self, presented: &str) -> bool {
        TokenHash::of(presented).0.ct_eq(&self.0).into()
    }
}

impl fmt::Debug for TokenHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TokenHash({})", hex::encode(&self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chacha20::ChaCha20Rng;
    use rand_core::SeedableRng;

    #[test]
    fn a_token_admits_itself_only() {
        let mut rng = ChaCha20Rng::seed_from_u64(1);
        let (a, b) = (
            Token::draw(&mut rng).unwrap(),
            Token::draw(&mut rng).unwrap(),
        );
        assert_eq!(a.as_str().len(), 64);
        assert_ne!(a, b);
        assert!(a.hash().admits(a.as_str()));
        assert!(!a.hash().admits(b.as_str()));
        assert!(!a.hash().admits(""));
        assert!(!a.hash().admits(&a.as_str().to_uppercase()));
        assert!(!format!("{a:?}").contains(a.as_str()));
    }
}
