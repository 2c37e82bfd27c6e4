package acceptance

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
)

// silentHost listens on a port of its own, accepts connections and reads
// their requests, and never answers: a host behind a proxy or firewall that
// holds every request.
func silentHost(t *testing.T) string {
	t.Helper()
	var lc net.ListenConfig
	ln, err := lc.Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { _ = conn.Close() })
			go func() {
				r := bufio.NewReader(conn)
				for {
					if _, err := http.ReadRequest(r); err != nil {
						return
					}
				}
			}()
		}
	}()
	return "http://" + ln.Addr().String()
}

// timedPlan runs terraform plan, which must fail within bound, and returns
// its output with the lines joined.
func timedPlan(t *testing.T, tf *acctest.Terraform, bound time.Duration) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	start := time.Now()
	out, err := tf.Command(ctx, nil, "plan", "-no-color").CombinedOutput()
	took := time.Since(start)
	if err == nil {
		t.Fatalf("the plan succeeded against a host that never answers:\n%s", out)
	}
	if took > bound {
		t.Errorf("the plan failed after %s, want within %s:\n%s", took.Round(time.Second), bound, out)
	}
	return strings.Join(strings.Fields(string(out)), " ")
}

// TestAccHost_neverAnswers (issue 36, point 4): a plan against a host that
// accepts connections and never answers fails after two request timeouts,
// not after every retry's, and each construct's error says what fits it:
// the provider's request_timeout for the data source, which has no
// timeouts block; the resource's timeouts block for a refresh its time
// limit ended.
func TestAccHost_neverAnswers(t *testing.T) {
	t.Parallel()
	t.Run("a data source", func(t *testing.T) {
		t.Parallel()
		tf := acctest.NewTerraform(t, fmt.Sprintf(`provider "pipeline" {
  host            = %q
  api_key         = %q
  project_id      = "1"
  request_timeout = "3s"
}

data "pipeline_transformation_configs" "all" {}
`, silentHost(t), acctest.KeyWrite), nil)
		// Two attempts of 3 s and a retry's wait, with room for Terraform
		// itself; every retry of max_retries would take 33 s.
		out := timedPlan(t, tf, 16*time.Second)
		for _, want := range []string{"no answer within 3s, the request_timeout of one attempt (gave up after 2 attempts)",
			"The service did not answer in time", "raise the provider's request_timeout"} {
			if !strings.Contains(out, want) {
				t.Errorf("the error does not say %q:\n%s", want, out)
			}
		}
		if strings.Contains(out, "timeouts") {
			t.Errorf("the error of a data source speaks of timeouts, which it has none of:\n%s", out)
		}
	})
	t.Run("a resource's refresh", func(t *testing.T) {
		t.Parallel()
		host, _ := acctest.IsolatedAPI(t, nil)
		config := func(host, timeout string) string {
			return fmt.Sprintf(`provider "pipeline" {
  host            = %q
  api_key         = %q
  project_id      = "1"
  request_timeout = %q
}

resource "pipeline_transformation_config" "geoip" {
  plugin = 1
  timeouts {
    read = "2s"
  }
}
`, host, acctest.KeyWrite, timeout)
		}
		tf := acctest.NewTerraform(t, config(host, "30s"), nil)
		mustApply(t, tf)
		tf.WriteConfig(config(silentHost(t), "1m"))
		out := timedPlan(t, tf, 15*time.Second)
		for _, want := range []string{"the operation's time limit of 2s ran out",
			"The operation ran out of time: give it more with the resource's timeouts block"} {
			if !strings.Contains(out, want) {
				t.Errorf("the error does not say %q:\n%s", want, out)
			}
		}
	})
}

// TestAccHost_apiPath (issue 36, point 4): a host that names the API's
// own path is refused at plan time, saying to drop it, before any request.
func TestAccHost_apiPath(t *testing.T) {
	t.Parallel()
	for _, suffix := range []string{"/api", "/api/"} {
		t.Run(suffix, func(t *testing.T) {
			t.Parallel()
			host, local := acctest.IsolatedAPI(t, nil)
			tf := acctest.NewTerraform(t, fmt.Sprintf(`provider "pipeline" {
  host       = %q
  api_key    = %q
  project_id = "1"
}

data "pipeline_transformation_configs" "all" {}
`, host+suffix, acctest.KeyWrite), nil)
			out, code := tf.PlanExitCode()
			out = strings.Join(strings.Fields(out), " ")
			want := fmt.Sprintf("drop the path from /api on and set host to %q", host)
			if code != 1 || !strings.Contains(out, want) || strings.Contains(out, "removed") {
				t.Errorf("the plan (exit %d, want 1) does not say %q:\n%s", code, want, out)
			}
			if n := local.Counters()["total"]; n != 0 {
				t.Errorf("the local API got %d requests, want none", n)
			}
		})
	}
}
