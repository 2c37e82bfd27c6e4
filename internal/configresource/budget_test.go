package configresource_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
)

// budgetRecords is how many records of each kind the budget test manages:
// two list pages of each collection.
const budgetRecords = 120

// TestAccConfigResource_requestBudget counts, through the real terraform,
// the requests of each phase of managing budgetRecords records of each kind:
// a plan of new records at most one list of each collection (whether the
// service stores configs), an apply exactly one POST per record (no read
// after write), an update
// of every record exactly one PATCH each, a destroy one PATCH each, and
// every refresh of all of them reads each collection's two pages plus at
// most one GET per collection, the first read, made before the provider
// knows that many will follow.
func TestAccConfigResource_requestBudget(t *testing.T) {
	var log acctest.RequestLog
	host, _ := acctest.IsolatedAPI(t, log.Wrap)
	kinds := acctest.KindCases(t)
	config := func(name string) string {
		// No client-side rate limit: 240 writes would wait for it.
		out := strings.Replace(acctest.ProviderBlock(host, acctest.KeyWrite, "1"), "{\n", "{\n  requests_per_minute = 0\n", 1)
		for _, tc := range kinds {
			out += tc.Resource("r", fmt.Sprintf("  count  = %d\n  plugin = %d\n  name   = \"%s-${count.index}\"",
				budgetRecords, tc.Plugins[0], name))
		}
		return out
	}
	refresh := requestsCheck(t, &log, "refresh", func(c requestCount) error {
		for _, tc := range kinds {
			coll := string(tc.Kind.Collection)
			if c.lists[coll] != 2 || c.gets[coll] > 1 {
				return fmt.Errorf("%s: %d lists and %d GETs, want 2 lists and at most 1 GET", coll, c.lists[coll], c.gets[coll])
			}
		}
		return c.only("GET")
	})
	writes := func(method string) plancheck.PlanCheck {
		return requestsCheck(t, &log, method+" per record", func(c requestCount) error {
			if got, want := c.byMethod[method], 2*budgetRecords; got != want {
				return fmt.Errorf("%d %s requests, want %d", got, method, want)
			}
			if method == http.MethodPost {
				// The apply's own plan looked at each collection once.
				return c.onlyAndLooks(method, kinds)
			}
			return c.only(method)
		})
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config("first"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{requestsCheck(t, &log, "plan of new records", oneLookEach(kinds))},
					PostApplyPreRefresh:  []plancheck.PlanCheck{writes(http.MethodPost)},
					PostApplyPostRefresh: []plancheck.PlanCheck{refresh, plancheck.ExpectEmptyPlan()},
				},
			},
			{
				Config: config("second"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{refresh},
					PostApplyPreRefresh:  []plancheck.PlanCheck{writes(http.MethodPatch)},
					PostApplyPostRefresh: []plancheck.PlanCheck{refresh, plancheck.ExpectEmptyPlan()},
				},
			},
		},
		CheckDestroy: func(*terraform.State) error {
			c := countRequests(log.Take())
			if got, want := c.byMethod[http.MethodPatch], 2*budgetRecords; got != want {
				return fmt.Errorf("destroy: %d PATCH requests, want %d", got, want)
			}
			return c.only(http.MethodPatch)
		},
	})
}

// oneLookEach allows a plan of creates in an empty project one list of
// each collection: the look that tells whether the service stores configs.
func oneLookEach(kinds []acctest.KindCase) func(requestCount) error {
	return func(c requestCount) error { return c.onlyAndLooks(http.MethodGet, kinds) }
}

// requestCount sorts a request log by method, and the GETs of each
// collection into lists and retrieves.
type requestCount struct {
	all      []string
	byMethod map[string]int
	lists    map[string]int
	gets     map[string]int
}

func countRequests(reqs []string) requestCount {
	c := requestCount{all: reqs, byMethod: map[string]int{}, lists: map[string]int{}, gets: map[string]int{}}
	for _, r := range reqs {
		method, path, _ := strings.Cut(r, " ")
		c.byMethod[method]++
		// /api/projects/1/<collection>/ or /api/projects/1/<collection>/<id>/
		parts := strings.Split(strings.Trim(path, "/"), "/")
		if method != http.MethodGet || len(parts) < 4 {
			continue
		}
		if len(parts) == 4 {
			c.lists[parts[3]]++
		} else {
			c.gets[parts[3]]++
		}
	}
	return c
}

// only fails when a request of another method was made.
func (c requestCount) only(method string) error {
	if n := len(c.all) - c.byMethod[method]; n != 0 {
		return fmt.Errorf("%d requests besides %s ones: %q", n, method, c.all)
	}
	return nil
}

// onlyAndLooks fails when a request other than of method (a GET: a list),
// or more than one list of a collection, was made.
func (c requestCount) onlyAndLooks(method string, kinds []acctest.KindCase) error {
	lists := 0
	for _, tc := range kinds {
		n := c.lists[string(tc.Kind.Collection)]
		if n > 1 {
			return fmt.Errorf("%d lists of %s, want at most one", n, tc.Kind.Collection)
		}
		lists += n
	}
	other := len(c.all) - lists
	if method != http.MethodGet {
		other -= c.byMethod[method]
	}
	if n := other; n != 0 {
		return fmt.Errorf("%d requests besides %s ones and one list per collection: %q", n, method, c.all)
	}
	return nil
}

// requestsCheck is a plan check that judges, with check, the requests
// logged since the previous check: plan checks run between the terraform
// commands of a step, so each judges the commands before it.
func requestsCheck(t *testing.T, log *acctest.RequestLog, what string, check func(requestCount) error) plancheck.PlanCheck {
	return planCheckFunc(func(context.Context, plancheck.CheckPlanRequest, *plancheck.CheckPlanResponse) error {
		c := countRequests(log.Take())
		t.Logf("%s: %d requests, by method %v, lists %v, GETs %v", what, len(c.all), c.byMethod, c.lists, c.gets)
		if err := check(c); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		return nil
	})
}

type planCheckFunc func(context.Context, plancheck.CheckPlanRequest, *plancheck.CheckPlanResponse) error

func (f planCheckFunc) CheckPlan(ctx context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	resp.Error = f(ctx, req, resp)
}
