package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestDurability_SIGKILL: the local API killed (SIGKILL) during a stream
// of writes keeps, after a restart on the same -db file, every write it
// acknowledged: each create answered 201 is there, and each config shows
// at least the last order an update of it was answered 200 for.
func TestDurability_SIGKILL(t *testing.T) {
	t.Parallel()
	bin, db := buildCommand(t)
	srv := startCommand(t, bin, "-db", db)

	// Writers: each creates configs and then raises the order of its last
	// one, over and over, until the server dies under them.
	const writers = 8
	var (
		mu      sync.Mutex
		created = map[string]bool{} // names acknowledged
		orders  = map[int64]int64{} // id -> highest acknowledged order
		acks    atomic.Int64
		wg      sync.WaitGroup
	)
	client := &http.Client{Timeout: 10 * time.Second}
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var id int64
			for i := 0; ; i++ {
				if i%3 == 0 || id == 0 {
					name := fmt.Sprintf("w%d-%d", w, i)
					status, body, err := send(client, http.MethodPost, srv.base+"/api/projects/1/pipeline_transformation_configs/",
						fmt.Sprintf(`{"plugin": 1, "order": 0, "name": %q}`, name))
					if err != nil {
						return // the server is gone
					}
					if status != http.StatusCreated {
						t.Errorf("create: %d %s", status, body)
						return
					}
					var rec struct{ ID int64 }
					if err := json.Unmarshal(body, &rec); err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					created[name], id = true, rec.ID
					mu.Unlock()
				} else {
					status, body, err := send(client, http.MethodPatch, fmt.Sprintf("%s/api/projects/1/pipeline_transformation_configs/%d/", srv.base, id),
						fmt.Sprintf(`{"order": %d}`, i))
					if err != nil {
						return
					}
					if status != http.StatusOK {
						t.Errorf("update: %d %s", status, body)
						return
					}
					mu.Lock()
					orders[id] = max(orders[id], int64(i))
					mu.Unlock()
				}
				acks.Add(1)
			}
		}()
	}
	// Kill it once a good stream of writes was acknowledged.
	deadline := time.Now().Add(30 * time.Second)
	for acks.Load() < 300 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if err := srv.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	_ = srv.cmd.Wait()
	mu.Lock()
	defer mu.Unlock()
	if len(created) == 0 || len(orders) == 0 {
		t.Fatalf("%d creates and %d updates acknowledged before the kill: nothing to check", len(created), len(orders))
	}

	// Restart on the same file: everything acknowledged is there.
	srv = startCommand(t, bin, "-db", db)
	defer srv.stop(t)
	status, body, err := send(client, http.MethodGet, srv.base+"/api/projects/1/pipeline_transformation_configs/?limit=100000", "")
	if err != nil || status != http.StatusOK {
		t.Fatalf("list after the restart: %d %v %s", status, err, body)
	}
	var page struct {
		Results []struct {
			ID    int64  `json:"id"`
			Name  string `json:"name"`
			Order int64  `json:"order"`
		} `json:"results"`
	}
	if err := json.Unmarshal(body, &page); err != nil {
		t.Fatal(err)
	}
	names, stored := map[string]bool{}, map[int64]int64{}
	for _, r := range page.Results {
		names[r.Name], stored[r.ID] = true, r.Order
	}
	for name := range created {
		if !names[name] {
			t.Errorf("acknowledged create %s is lost", name)
		}
	}
	for id, order := range orders {
		if stored[id] < order {
			t.Errorf("config %d has order %d after the restart; an update to %d was acknowledged", id, stored[id], order)
		}
	}
	t.Logf("%d creates and updates of %d configs acknowledged before SIGKILL; %d configs after the restart",
		acks.Load(), len(orders), len(page.Results))
}

func send(c *http.Client, method, url, body string) (int, []byte, error) {
	req, err := http.NewRequestWithContext(context.Background(), method, url, strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer phx_local_full")
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}
