package configresource_test

import (
	"context"
	"math/big"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi/localapitest"
)

// TestRecordResource_createAnswerLost: through the provider, a create whose
// answer is lost after the service stored the config (a proxy's 502) ends
// with that config in the state and no second one on the service.
func TestRecordResource_createAnswerLost(t *testing.T) {
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
		acctest.FailOnDiagnostics(t, "create", resp.Diagnostics)
		var idNum big.Float
		if err := acctest.Attributes(t, resp.NewState, srv.ResourceType(t, tc.TypeName))["id"].As(&idNum); err != nil {
			t.Fatal(err)
		}
		id, _ := idNum.Int64()

		c, err := client.New(client.Config{Host: host, APIKey: acctest.KeyFull})
		if err != nil {
			t.Fatal(err)
		}
		recs, err := c.ListAll(context.Background(), "1", tc.Kind.Collection)
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != 1 || recs[0].ID != id {
			t.Errorf("the API holds %d configs, want exactly the one in the state (%d)", len(recs), id)
		}
		if n := local.Counters()["create"]; n != 1 {
			t.Errorf("%d creates sent, want 1", n)
		}
	})
}
