// What a failed connection means, with a hint of what to check: the
// failures that waiting cannot mend, failed at once (DESIGN.md), and a
// refused connection. A resolver or handshake that times out and other TLS
// alerts are none of these, and are retried.

package client

import (
	"cmp"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"runtime"
	"syscall"
)

// wsaeconnrefused is what Windows returns instead of syscall.ECONNREFUSED.
const wsaeconnrefused = 10061

// connRefused reports a refused connection: a wrong port, or a service
// restarting, which one retry after RetryWaitMin covers (a POST's too).
func connRefused(err error) bool {
	return errors.Is(err, syscall.ECONNREFUSED) || runtime.GOOS == "windows" && errors.Is(err, syscall.Errno(wsaeconnrefused))
}

// handshakeAlerts are the TLS alerts of a handshake the server refuses, as
// crypto/tls words them (its alert type is unexported).
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

// refusedHere is what a certificate refused here, or a server that does not
// speak TLS, means and what to check; "" for any other failure.
func refusedHere(err error, quoted, where string) string {
	switch {
	case isA[x509.UnknownAuthorityError](err):
		return "the TLS certificate of " + quoted + " is signed by an authority this machine does not trust: " +
			"check that " + where + " names the service itself, or add the authority that signed its certificate " +
			"to this machine's trusted certificates (on Linux, SSL_CERT_FILE or SSL_CERT_DIR may name a bundle that holds it)"
	case isA[x509.HostnameError](err):
		return "the TLS certificate of " + quoted + " is issued for other names: check that " + where +
			" uses a name the certificate is for"
	case isA[x509.CertificateInvalidError](err):
		return "the TLS certificate of " + quoted + " is not valid: check this machine's clock, " +
			"and that the service's certificate is current"
	case isA[*tls.CertificateVerificationError](err):
		return "the TLS certificate of " + quoted + " cannot be verified: check that " + where +
			" names the service itself, and this machine's trusted certificates"
	case errors.Is(err, http.ErrSchemeMismatch):
		return quoted + " answered plain HTTP to an https request: check the scheme and port in " + where
	case isA[tls.RecordHeaderError](err):
		return quoted + " does not speak TLS on that port: check the scheme and port in " + where
	}
	return ""
}

// netHint says what a failure that waiting cannot mend, or a refused
// connection, means and what to check at host; "" for any other failure.
func netHint(err error, host string) string {
	quoted := `"` + host + `"`
	where := "the host setting"
	var opErr *net.OpError
	proxy := errors.As(err, &opErr) && opErr.Op == "proxyconnect"
	if proxy { // Go takes the proxy from the environment
		quoted = "the proxy (HTTPS_PROXY or HTTP_PROXY)"
		where = "HTTPS_PROXY and HTTP_PROXY"
	}

	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
		name := cmp.Or(dnsErr.Name, host)
		if proxy {
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
	if hint := refusedHere(err, quoted, where); hint != "" {
		return hint
	}
	var remote *net.OpError
	if errors.As(err, &remote) && remote.Op == "remote error" && remote.Err != nil && handshakeAlerts[remote.Err.Error()] {
		return quoted + " refused the TLS handshake: check that " + where + " names the service's https address; " +
			"a server that requires a client certificate or TLS settings this client lacks refuses it too"
	}
	return ""
}

// dialedAddr is the address a failed dial tried, "" when err names none.
func dialedAddr(err error) string {
	var opErr *net.OpError
	for errors.As(err, &opErr) {
		if opErr.Op == "dial" && opErr.Addr != nil {
			return opErr.Addr.String()
		}
		err = opErr.Err
	}
	return ""
}
