package configresource_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi/localapitest"
)

// TestConfigResource_createAnswerLost: through the provider, a create whose
// answer is lost after the service stored the config (a proxy's 502) is not
// sent again: the error names the config the service made, and nothing
// enters the state.
func TestConfigResource_createAnswerLost(t *testing.T) {
	t.Parallel()
	acctest.ForEachKind(t, func(t *testing.T, tc acctest.KindCase) {
		t.Parallel()
		var posts atomic.Int32
		host, local := acctest.IsolatedAPI(t, func(h http.Handler) http.Handler {
			return localapitest.LoseAnswers(h, func(r *http.Request) localapitest.Loss {
				if r.Method == http.MethodPost && posts.Add(1) == 1 {
					return localapitest.Lose502
				}
				return localapitest.Keep
			})
		})
		srv := acctest.NewProviderServerFor(t, host, acctest.KeyWrite, "1")
		resp := srv.Apply(t, tc.TypeName, nil, nil, map[string]tftypes.Value{
			"plugin": tftypes.NewValue(tftypes.Number, tc.Plugins[0]),
			"name":   tftypes.NewValue(tftypes.String, "lost answer"),
		})
		if !acctest.HasError(resp.Diagnostics) {
			t.Fatal("the create whose answer was lost succeeded")
		}
		if resp.NewState != nil {
			if v, err := resp.NewState.Unmarshal(srv.ResourceType(t, tc.TypeName)); err == nil && !v.IsNull() {
				t.Errorf("the failed create left a state: %v", v)
			}
		}

		c, err := client.New(client.Config{Host: host, APIKey: acctest.KeyFull})
		if err != nil {
			t.Fatal(err)
		}
		recs, err := c.ListAll(context.Background(), "1", tc.Kind.Collection)
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != 1 {
			t.Fatalf("the API holds %d configs, want the one the lost create made", len(recs))
		}
		text := acctest.DiagnosticsText(resp.Diagnostics)
		if want := fmt.Sprintf("The service has %s %d,", tc.Kind.Noun, recs[0].ID); !strings.Contains(text, want) {
			t.Errorf("the error does not name the config made (%q):%s", want, text)
		}
		if n := local.Counters()["create"]; n != 1 {
			t.Errorf("%d creates sent, want 1", n)
		}
	})
}
