package localapi_test

import (
	"context"
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// A connection that never sent a request (a client's spare dial) does not
// hold up Shutdown, which net/http would otherwise give five seconds: the
// server closes it and stops.
func TestShutdown_silentConnection(t *testing.T) {
	r, err := localapi.Start(localapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var d net.Dialer
	conn, err := d.DialContext(t.Context(), "tcp", r.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// Let the server accept it: the read times out, the server sends
	// nothing on a connection that sent nothing.
	_ = conn.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	_, _ = conn.Read(make([]byte, 1))

	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
	defer cancel()
	if err := r.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown with a silent connection open: %v", err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(3 * time.Second))
	if _, err := conn.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
		t.Errorf("read from the silent connection after Shutdown: %v, want EOF", err)
	}
}
