package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// runOrder is the order scenario (make bench-order): n enabled
// transformation configs in sequence, and one apply of an order resource
// that lists them reversed, so that nearly every config's order changes.
// Each build (-base-bin, when given, then -cand-bin) applies it with the
// legacy key, which may call rearrange, and with a scoped key, which may
// not, against the local API limited to -rate-limit requests per minute
// and key (the live service's 480) and the provider's default pace. Every
// run starts from the same orders and an empty state. It reports the
// requests by operation and the apply's wall time.
func (b *bench) runOrder(ctx context.Context, w io.Writer) error {
	if err := b.setRateLimit(ctx, 0); err != nil {
		return err
	}
	ids, err := b.orderConfigs(ctx)
	if err != nil {
		return err
	}
	dir := filepath.Join(b.work, "order")
	if err := writeConfig(dir, orderConfig(ids)); err != nil {
		return err
	}
	if _, err := b.terraform(ctx, dir, "", "init", "-input=false"); err != nil {
		return err
	}
	builds := []struct{ label, bin string }{{b.baseLabel, b.baseBin}, {b.candLabel, b.candBin}}
	if b.baseBin == "" {
		builds = builds[1:]
	}
	fmt.Fprintf(w, "\n### Order: %d transformation configs reversed, one apply\n\n", b.n)
	fmt.Fprintf(w, "The local API limits each key to %d requests/minute; the provider keeps its default pace "+
		"(400/minute); latency added to each request: %s. Load average before: %s.\n\n", b.rateLimit, b.latency, loadAverage())
	fmt.Fprintln(w, "| build | key | orders that change | requests (by operation) | apply wall time |")
	fmt.Fprintln(w, "| --- | --- | ---: | --- | ---: |")
	for _, build := range builds {
		for _, key := range []string{"phx_local_full", "phx_local_write"} {
			if err := b.resetOrders(ctx, ids); err != nil {
				return err
			}
			if err := os.Remove(filepath.Join(dir, "terraform.tfstate")); err != nil && !os.IsNotExist(err) {
				return err
			}
			r, c, err := b.timedOrderApply(ctx, dir, build.bin, key)
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "| %s | %s | %d | %s | %s |\n", build.label, key, len(ids)-len(ids)%2, requests(c), seconds(r.wall))
		}
	}
	fmt.Fprintf(w, "\nLoad average after: %s.\n", loadAverage())
	return nil
}

// timedOrderApply applies the order with key under the API's rate limit and
// latency, and returns its times and the requests the API counted.
func (b *bench) timedOrderApply(ctx context.Context, dir, bin, key string) (run, map[string]int64, error) {
	if err := b.setRateLimit(ctx, b.rateLimit); err != nil {
		return run{}, nil, err
	}
	defer func() { _ = b.setRateLimit(context.WithoutCancel(ctx), 0) }()
	if err := b.debug(ctx, http.MethodPut, "faults", map[string]string{"latency": b.latency}, nil); err != nil {
		return run{}, nil, err
	}
	defer func() {
		_ = b.debug(context.WithoutCancel(ctx), http.MethodPut, "faults", map[string]string{"latency": "0s"}, nil)
	}()
	if err := b.resetCounters(ctx); err != nil {
		return run{}, nil, err
	}
	r, err := b.terraformEnv(ctx, dir, "", []string{"BENCH_PROVIDER_BIN=" + bin},
		"apply", "-input=false", "-auto-approve", "-var", "key="+key)
	if err != nil {
		return run{}, nil, err
	}
	c, err := b.counters(ctx)
	return r, c, err
}

// orderConfigs creates the benchmark's n configs, in sequence (orders 1 to
// n), and returns their ids.
func (b *bench) orderConfigs(ctx context.Context) ([]int64, error) {
	ids := make([]int64, b.n)
	for i := range ids {
		var rec struct{ ID int64 }
		body := map[string]any{"plugin": 1, "order": i + 1, "enabled": true, "name": fmt.Sprintf("o-%d", i)}
		if err := b.apiCall(ctx, http.MethodPost, "", body, &rec); err != nil {
			return nil, err
		}
		ids[i] = rec.ID
	}
	return ids, nil
}

// resetOrders sets the configs' orders back to 1 to n, with no rate limit.
func (b *bench) resetOrders(ctx context.Context, ids []int64) error {
	for i, id := range ids {
		if err := b.apiCall(ctx, http.MethodPatch, strconv.FormatInt(id, 10)+"/", map[string]any{"order": i + 1}, nil); err != nil {
			return err
		}
	}
	return nil
}

// apiCall sends a request to project 1's transformation configs with the
// legacy key.
func (b *bench) apiCall(ctx context.Context, method, sub string, in, out any) error {
	buf, err := json.Marshal(in)
	if err != nil {
		return err
	}
	url := b.api + "/api/projects/1/pipeline_transformation_configs/" + sub
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(buf))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer phx_local_full")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		msg, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("%s %s: %s %s", method, url, resp.Status, msg)
	}
	if out != nil {
		return json.NewDecoder(resp.Body).Decode(out)
	}
	return nil
}

// orderConfig is an order resource listing ids reversed, with the key a
// variable; host and project come from the environment.
func orderConfig(ids []int64) string {
	refs := make([]string, len(ids))
	for i, id := range ids {
		refs[len(ids)-1-i] = strconv.FormatInt(id, 10)
	}
	return fmt.Sprintf(`terraform {
  required_providers {
    pipeline = {
      source = "pipelinecfg/pipeline"
    }
  }
}

variable "key" {
  type = string
}

provider "pipeline" {
  api_key = var.key
}

resource "pipeline_transformation_order" "all" {
  config_ids = [%s]
}
`, strings.Join(refs, ", "))
}
