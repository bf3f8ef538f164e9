//! TLS to PostgreSQL: libpq's `sslmode` values as this service applies
//! them, and the rustls check of the server's certificate each one makes.
//!
//! | sslmode | TLS | the server's certificate |
//! |---|---|---|
//! | `disable` | never | — |
//! | `prefer` | if the server offers it, else plaintext | checked against `sslrootcert` if given, else not checked |
//! | `require` | always, or the connection is refused | checked against `sslrootcert` if given (as `verify-ca`), else **not checked** |
//! | `verify-ca` | always | signed by a CA in `sslrootcert` (required) |
//! | `verify-full` | always | signed by a CA in `sslrootcert` (required) and issued for the `host` named |
//!
//! Without a root certificate, `require` stops a passive eavesdropper only:
//! anyone who can intercept the connection can present a certificate of
//! their own and read everything. `prefer` can moreover be turned into
//! plaintext by such an attacker. `allow` (plaintext first) is refused.

use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::{verify_server_cert_signed_by_trust_anchor, verify_server_name};
use rustls::crypto::{WebPkiSupportedAlgorithms, ring};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::server::ParsedCertificate;
use rustls::{ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme};
use tokio_postgres_rustls::MakeRustlsConnect;

use crate::Error;

/// The `sslmode` values this service supports (libpq's, less `allow`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SslMode {
    /// Plaintext only.
    Disable,
    /// TLS if the server offers it.
    Prefer,
    /// TLS or nothing; the certificate is checked only against a given root.
    Require,
    /// TLS with the certificate's chain checked against `sslrootcert`.
    VerifyCa,
    /// As `VerifyCa`, and the certificate names the host connected to.
    VerifyFull,
}

impl SslMode {
    /// Reads an `sslmode` value, refusing one this service does not support.
    pub(crate) fn parse(value: &str) -> Result<SslMode, Error> {
        match value {
            "disable" => Ok(SslMode::Disable),
            "prefer" => Ok(SslMode::Prefer),
            "require" => Ok(SslMode::Require),
            "verify-ca" => Ok(SslMode::VerifyCa),
            "verify-full" => Ok(SslMode::VerifyFull),
            other => Err(Error::invalid(
                "db",
                format!(
                    "sslmode={other} is not supported: use disable, prefer, require, \
                     verify-ca or verify-full"
                ),
            )),
        }
    }

    /// The name as written in a connection string.
    pub(crate) fn name(self) -> &'static str {
        match self {
            SslMode::Disable => "disable",
            SslMode::Prefer => "prefer",
            SslMode::Require => "require",
            SslMode::VerifyCa => "verify-ca",
            SslMode::VerifyFull => "verify-full",
        }
    }

    /// Whether the connection is refused without TLS.
    pub(crate) fn needs_tls(self) -> bool {
        matches!(
            self,
            SslMode::Require | SslMode::VerifyCa | SslMode::VerifyFull
        )
    }

    /// What the driver does: it knows plaintext, "TLS if offered" and
    /// "TLS or nothing"; the certificate checks are ours ([`connector`]).
    pub(crate) fn driver(self) -> postgres::config::SslMode {
        match self {
            SslMode::Disable => postgres::config::SslMode::Disable,
            SslMode::Prefer => postgres::config::SslMode::Prefer,
            _ => postgres::config::SslMode::Require,
        }
    }
}

/// The TLS connector for `mode`, trusting the certificates of the PEM file
/// `root` (read now, so a bad file is refused before any connection).
pub(crate) fn connector(mode: SslMode, root: Option<&str>) -> Result<MakeRustlsConnect, Error> {
    let provider = Arc::new(ring::default_provider());
    let roots = root.map(read_roots).transpose()?;
    let check = ServerCheck {
        roots,
        // Only verify-full names the host; libpq's verify-ca does not.
        check_name: mode == SslMode::VerifyFull,
        algorithms: provider.signature_verification_algorithms,
    };
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| Error::Storage(format!("TLS set-up failed: {e}")))?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(check))
        .with_no_client_auth();
    Ok(MakeRustlsConnect::new(config))
}

/// Every certificate of the PEM file at `path`, as trust anchors.
fn read_roots(path: &str) -> Result<Arc<RootCertStore>, Error> {
    let bad = |why: String| Error::invalid("db", format!("sslrootcert {path}: {why}"));
    let certs = CertificateDer::pem_file_iter(path).map_err(|e| bad(e.to_string()))?;
    let mut roots = RootCertStore::empty();
    for cert in certs {
        let cert = cert.map_err(|e| bad(e.to_string()))?;
        roots.add(cert).map_err(|e| bad(e.to_string()))?;
    }
    if roots.is_empty() {
        return Err(bad("holds no PEM certificate".into()));
    }
    Ok(Arc::new(roots))
}

/// The check of the server's certificate for one sslmode: its chain
/// against `roots` when there are roots (else none at all), and its name
/// when `check_name`. The handshake's signatures are always checked, so the
/// server holds the key of the certificate it shows.
#[derive(Debug)]
struct ServerCheck {
    roots: Option<Arc<RootCertStore>>,
    check_name: bool,
    algorithms: WebPkiSupportedAlgorithms,
}

impl ServerCertVerifier for ServerCheck {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let Some(roots) = &self.roots else {
            // require/prefer without a root: encrypted, not authenticated.
            return Ok(ServerCertVerified::assertion());
        };
        let cert = ParsedCertificate::try_from(end_entity)?;
        verify_server_cert_signed_by_trust_anchor(
            &cert,
            roots,
            intermediates,
            now,
            self.algorithms.all,
        )?;
        if self.check_name {
            verify_server_name(&cert, server_name)?;
        }
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::SslMode;

    #[test]
    fn every_supported_mode_reads_and_others_are_refused() {
        for mode in [
            SslMode::Disable,
            SslMode::Prefer,
            SslMode::Require,
            SslMode::VerifyCa,
            SslMode::VerifyFull,
        ] {
            assert_eq!(SslMode::parse(mode.name()).unwrap(), mode);
        }
        for bad in ["allow", "REQUIRE", "verify_full", ""] {
            let e = SslMode::parse(bad).unwrap_err().to_string();
            assert!(e.contains("is not supported") && !e.contains('\n'), "{e}");
        }
    }
}
