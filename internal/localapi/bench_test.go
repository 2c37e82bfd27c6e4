package localapi_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi/localapitest"
)

// The benchmarks go over loopback HTTP with keep-alive connections, several
// clients at once, and report requests/s. Run them with
//
//	go test ./internal/localapi -run '^$' -bench . -benchtime 3s

func benchClient() *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64, MaxConnsPerHost: 64}, Timeout: 10 * time.Second}
}

func benchDo(b *testing.B, c *http.Client, method, url string, body []byte, want int) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, _ := http.NewRequestWithContext(b.Context(), method, url, rd)
	req.Header.Set("Authorization", "Bearer "+full)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	_, err = io.Copy(io.Discard, resp.Body)
	if cerr := resp.Body.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		b.Fatal(err)
	}
	if resp.StatusCode != want {
		b.Fatalf("%s %s: %d", method, url, resp.StatusCode)
	}
}

func runParallel(b *testing.B, fn func(c *http.Client, i int64)) {
	c := benchClient()
	defer c.CloseIdleConnections()
	var n atomic.Int64
	b.SetParallelism(4)
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			fn(c, n.Add(1))
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "req/s")
}

func BenchmarkCreate(b *testing.B) {
	srv := localapitest.NewTestServer(b, localapi.Options{})
	url := srv.URL + path(1, tr)
	body := []byte(`{"plugin": 1, "order": 1, "name": "bench", "filters": {"events": [{"type": "events", "id": "$pageview"}]}}`)
	runParallel(b, func(c *http.Client, _ int64) { benchDo(b, c, "POST", url, body, 201) })
}

func BenchmarkRetrieve(b *testing.B) {
	srv := localapitest.NewTestServer(b, localapi.Options{})
	c := benchClient()
	defer c.CloseIdleConnections()
	const records = 1000
	for range records {
		benchDo(b, c, "POST", srv.URL+path(1, tr), []byte(`{"plugin": 1, "order": 1}`), 201)
	}
	runParallel(b, func(c *http.Client, i int64) {
		benchDo(b, c, "GET", fmt.Sprintf("%s%s", srv.URL, path(1, tr, 1+i%records)), nil, 200)
	})
}

func BenchmarkList100(b *testing.B) {
	srv := localapitest.NewTestServer(b, localapi.Options{})
	c := benchClient()
	defer c.CloseIdleConnections()
	for i := range 300 {
		benchDo(b, c, "POST", srv.URL+path(1, tr), []byte(fmt.Sprintf(`{"plugin": %d, "order": %d}`, 1+i%2, i)), 201)
	}
	runParallel(b, func(c *http.Client, i int64) {
		benchDo(b, c, "GET", fmt.Sprintf("%s%s?limit=100&offset=%d", srv.URL, path(1, tr), 100*(i%3)), nil, 200)
	})
}

// BenchmarkCreateFile is BenchmarkCreate on a database file (WAL).
func BenchmarkCreateFile(b *testing.B) {
	srv := localapitest.NewTestServer(b, localapi.Options{DBPath: b.TempDir() + "/bench.db"})
	url := srv.URL + path(1, tr)
	body := []byte(`{"plugin": 1, "order": 1}`)
	runParallel(b, func(c *http.Client, _ int64) { benchDo(b, c, "POST", url, body, 201) })
}
