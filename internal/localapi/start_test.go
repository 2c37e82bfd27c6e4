package localapi_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
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

// A request whose body trickles in, a byte a second, is cut off within the
// read timeout (10 s): the server answers it or closes the connection,
// and makes nothing of it, instead of waiting for the sender.
func TestStart_tricklingBodyIsCutOff(t *testing.T) {
	t.Parallel()
	r, err := localapi.Start(localapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var d net.Dialer
	conn, err := d.DialContext(t.Context(), "tcp", r.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	body := `{"plugin": 1, "order": 1, "name": "trickled"}`
	if _, err := fmt.Fprintf(conn, "POST /api/projects/1/%s/ HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n", localapi.TransformationConfigs, r.Addr,
		localapi.KeyFull, len(body)); err != nil {
		t.Fatal(err)
	}
	go func() {
		for i := range len(body) {
			if _, err := conn.Write([]byte{body[i]}); err != nil {
				return // the server closed it
			}
			time.Sleep(time.Second)
		}
	}()
	const bound = 13 * time.Second // the read timeout, and room for a loaded machine
	_ = conn.SetReadDeadline(start.Add(bound))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	took := time.Since(start)
	var netErr net.Error
	if errors.As(err, &netErr) && netErr.Timeout() {
		t.Fatalf("the server still held the trickling request after %s", took.Round(time.Second))
	}
	if err == nil {
		_ = resp.Body.Close()
		if resp.StatusCode < 400 {
			t.Errorf("the trickling request was answered %s, want it refused", resp.Status)
		}
	}
	if recs, err := r.StoredRecords(1); err != nil || len(recs) != 0 {
		t.Errorf("the trickling request made configs %v (%v)", recs, err)
	}
}

// The -db file and SQLite's -wal and -shm beside it hold plugin secrets in
// plain text: only their owner may read them.
func TestStart_databaseFilesAreTheOwners(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("Windows has no such modes")
	}
	db := filepath.Join(t.TempDir(), "pipeline.db")
	r, err := localapi.Start(localapi.Options{DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, r.URL+"/api/projects/1/"+localapi.TransformationConfigs+"/",
		strings.NewReader(`{"plugin": 1, "order": 1}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+localapi.KeyFull)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create answered %s", resp.Status)
	}
	for _, name := range []string{db, db + "-wal", db + "-shm"} {
		info, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		if mode := info.Mode().Perm(); mode&0o077 != 0 {
			t.Errorf("%s has mode %v, want it readable and writable by its owner only", filepath.Base(name), mode)
		}
	}
}
