package acctest

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

// ActiveConfigs returns the active configs of project 1 in every
// collection, with how often each id is listed (more than once would be a
// listing bug).
func ActiveConfigs(api *client.Client) (map[int64]int, error) {
	ids := map[int64]int{}
	for _, k := range framework.Kinds() {
		recs, err := api.ListAll(context.Background(), "1", k.Collection)
		if err != nil {
			return nil, err
		}
		for _, r := range recs {
			if !r.Deleted {
				ids[r.ID]++
			}
		}
	}
	return ids, nil
}

// CheckStateMatchesAPI checks that the state and project 1 on the API hold
// the same n configs: no duplicate, no orphan.
func CheckStateMatchesAPI(api *client.Client, n int) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		state := map[string]int64{}
		for addr, rs := range s.RootModule().Resources {
			var id int64
			if _, err := fmt.Sscan(rs.Primary.ID, &id); err != nil {
				return fmt.Errorf("%s: id %q", addr, rs.Primary.ID)
			}
			state[addr] = id
		}
		return StateMatchesAPI(api, state, n)
	}
}

// StateMatchesAPI checks that state (config ids by address) and project 1
// on the API hold the same n configs: no address shares another's config,
// no config active on the API is missing from the state (an orphan or a
// duplicate) or listed twice, none in the state is inactive on the API.
func StateMatchesAPI(api *client.Client, state map[string]int64, n int) error {
	onAPI, err := ActiveConfigs(api)
	if err != nil {
		return err
	}
	var errs []error
	inState := map[int64]string{}
	for _, addr := range slices.Sorted(maps.Keys(state)) {
		id := state[addr]
		if other, dup := inState[id]; dup {
			errs = append(errs, fmt.Errorf("%s and %s both hold config %d", other, addr, id))
		}
		inState[id] = addr
	}
	for _, id := range slices.Sorted(maps.Keys(onAPI)) {
		if _, ok := inState[id]; !ok {
			errs = append(errs, fmt.Errorf("config %d is active on the API but in no state: an orphan or a duplicate", id))
		}
		if listed := onAPI[id]; listed > 1 {
			errs = append(errs, fmt.Errorf("config %d is listed %d times", id, listed))
		}
	}
	for _, addr := range slices.Sorted(maps.Keys(state)) {
		if onAPI[state[addr]] == 0 {
			errs = append(errs, fmt.Errorf("%s holds config %d, which is not active on the API", addr, state[addr]))
		}
	}
	if len(state) != n || len(onAPI) != n {
		errs = append(errs, fmt.Errorf("%d configs in the state and %d active on the API, want %d and %d", len(state), len(onAPI), n, n))
	}
	return errors.Join(errs...)
}
