package client

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"runtime"
	"syscall"
)

// Failures that waiting cannot mend: a request that could not reach the
// service because the host setting, or this machine's trust in the
// service's certificate, is wrong. Retrying them spent max_retries' whole
// backoff (six attempts over some 18 s by default) before the same error.
// The retry policy fails them at once (retry.go) and the error names the
// host and what to check (TransportError.Hint):
//
//   - DNS says the host does not exist ("no such host"): a typo, or a name
//     of another network. A resolver that times out or fails (SERVFAIL) is
//     another matter and is retried as before.
//   - The certificate is refused here: signed by an unknown authority, for
//     other names, expired. Nothing about it changes between attempts.
//   - The TLS handshake cannot work: plain HTTP on an https URL, a port that
//     does not speak TLS, or the server refusing the handshake with an alert
//     only a handshake sends (protocol version, client certificate
//     required, ...). A handshake that times out is retried as before.
//   - A refused connection: the host answered and nothing listens on the
//     port. See refusedRetries.

// refusedRetries is how often a refused connection is tried again, after
// RetryWaitMin (and never more often than max_retries allows). A refused
// connection means a wrong port, or a service that is not running there;
// behind a load balancer (the hosted service) it does not happen at all.
// One case mends quickly: a service on this machine or network that is
// being restarted (the local API, a self-hosted instance under a
// supervisor) refuses for the moment between its old and new process. One
// retry half a second later covers that for the price of half a second on
// a wrong port; an outage that lasts longer gets the error at once, where
// it used to get it after the whole backoff, and running again once the
// service is up is the caller's decision. A POST that was refused never
// left (notSent), so its retry cannot create twice.
const refusedRetries = 1

// wsaeconnrefused is Windows' WSAECONNREFUSED, which the net package
// returns there instead of syscall.ECONNREFUSED.
const wsaeconnrefused = 10061

// connRefused reports whether err is a refused connection.
func connRefused(err error) bool {
	if errors.Is(err, syscall.ECONNREFUSED) {
		return true
	}
	var errno syscall.Errno
	return runtime.GOOS == "windows" && errors.As(err, &errno) && errno == wsaeconnrefused
}

// handshakeAlerts are the TLS alerts a server sends only in a handshake it
// refuses, as Go's crypto/tls words them (its alert type is unexported):
// none of them goes away on a second attempt. Other alerts (internal
// error, bad record MAC) may be passing trouble and are retried.
var handshakeAlerts = map[string]bool{
	"tls: handshake failure":               true,
	"tls: bad certificate":                 true,
	"tls: unsupported certificate":         true,
	"tls: revoked certificate":             true,
	"tls: expired certificate":             true,
	"tls: unknown certificate":             true,
	"tls: unknown certificate authority":   true,
	"tls: access denied":                   true,
	"tls: protocol version not supported":  true,
	"tls: insufficient security level":     true,
	"tls: unrecognized name":               true,
	"tls: certificate required":            true,
	"tls: no application protocol":         true,
	"tls: encrypted client hello required": true,
}

// rejectedBeforeSending reports a failure this side detected in the TLS
// handshake, before the request was written: the server's certificate
// refused, or a server that does not speak TLS. (A handshake the server
// refuses is not one of them: with TLS 1.3 its alert about a client
// certificate may come after the request left.)
func rejectedBeforeSending(err error) bool {
	var certErr *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	var hostnameErr x509.HostnameError
	var invalidCert x509.CertificateInvalidError
	var recordErr tls.RecordHeaderError
	return errors.As(err, &certErr) || errors.As(err, &unknownAuth) ||
		errors.As(err, &hostnameErr) || errors.As(err, &invalidCert) ||
		errors.As(err, &recordErr) || errors.Is(err, http.ErrSchemeMismatch)
}

// unreachable returns what a failure that waiting cannot mend means and
// what to check, naming host (the host setting's host[:port]); "" for any
// other failure. A refused connection gets its words too, although it is
// retried once (refusedRetries).
func unreachable(err error, host string) string {
	quoted := `"` + host + `"`
	where := "the host setting"
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "proxyconnect" {
		// The proxy failed, not the service: Go takes it from the
		// environment.
		quoted = "the proxy (HTTPS_PROXY or HTTP_PROXY)"
		where = "HTTPS_PROXY and HTTP_PROXY"
	}

	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
		name := dnsErr.Name
		if name == "" {
			name = host
		}
		if where != "the host setting" {
			return `cannot find the proxy's host "` + name + `": check ` + where
		}
		return `cannot find the host "` + name + `": check the host setting for a typo`
	}
	if connRefused(err) {
		at := quoted
		if addr := dialedAddr(err); addr != "" && addr != host {
			at += " (" + addr + ")"
		}
		return "nothing accepts connections at " + at + ": check the port in " + where + " and that the service is running there"
	}

	var unknownAuth x509.UnknownAuthorityError
	var hostnameErr x509.HostnameError
	var invalidCert x509.CertificateInvalidError
	var certErr *tls.CertificateVerificationError
	var recordErr tls.RecordHeaderError
	switch {
	case errors.As(err, &unknownAuth):
		return "the TLS certificate of " + quoted + " is signed by an authority this machine does not trust: " +
			"check that " + where + " names the service itself, or add the authority that signed its certificate " +
			"to this machine's trusted certificates (on Linux, SSL_CERT_FILE or SSL_CERT_DIR may name a bundle that holds it)"
	case errors.As(err, &hostnameErr):
		return "the TLS certificate of " + quoted + " is issued for other names: check that " + where +
			" uses a name the certificate is for"
	case errors.As(err, &invalidCert):
		return "the TLS certificate of " + quoted + " is not valid: check this machine's clock, " +
			"and that the service's certificate is current"
	case errors.As(err, &certErr):
		return "the TLS certificate of " + quoted + " cannot be verified: check that " + where +
			" names the service itself, and this machine's trusted certificates"
	case errors.Is(err, http.ErrSchemeMismatch):
		return quoted + " answered plain HTTP to an https request: check the scheme and port in " + where
	case errors.As(err, &recordErr):
		return quoted + " does not speak TLS on that port: check the scheme and port in " + where
	}
	var remote *net.OpError
	if errors.As(err, &remote) && remote.Op == "remote error" && remote.Err != nil && handshakeAlerts[remote.Err.Error()] {
		return quoted + " refused the TLS handshake: check that " + where + " names the service's https address; " +
			"a server that requires a client certificate or TLS settings this client lacks refuses it too"
	}
	return ""
}

// cannotMend reports a failure that no retry mends: unreachable's, but a
// refused connection.
func cannotMend(err error) bool {
	return !connRefused(err) && unreachable(err, "") != ""
}

// dialedAddr is the address a failed dial tried, "" when err names none.
func dialedAddr(err error) string {
	for {
		var opErr *net.OpError
		if !errors.As(err, &opErr) {
			return ""
		}
		if opErr.Op == "dial" && opErr.Addr != nil {
			return opErr.Addr.String()
		}
		if opErr.Err == nil {
			return ""
		}
		err = opErr.Err
	}
}
