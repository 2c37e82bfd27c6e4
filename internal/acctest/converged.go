package acctest

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/kind"
)

// ActiveConfigs returns the active configs of project 1 in every
// collection, with how often each id is listed (more than once would be a
// listing bug).
func ActiveConfigs(api *client.Client) (map[int64]int, error) {
	ids := map[int64]int{}
	for _, k := range kind.Kinds() {
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
		inState := map[int64]bool{}
		for _, rs := range s.RootModule().Resources {
			var id int64
			if _, err := fmt.Sscan(rs.Primary.ID, &id); err != nil {
				return fmt.Errorf("%s: id %q", rs.Type, rs.Primary.ID)
			}
			inState[id] = true
		}
		onAPI, err := ActiveConfigs(api)
		if err != nil {
			return err
		}
		if len(inState) != n || len(onAPI) != n {
			return fmt.Errorf("%d configs in the state, %d active on the API; want %d and %d", len(inState), len(onAPI), n, n)
		}
		for id, listed := range onAPI {
			if !inState[id] {
				return fmt.Errorf("config %d is active on the API but not in the state (orphan or duplicate)", id)
			}
			if listed > 1 {
				return fmt.Errorf("config %d is listed %d times", id, listed)
			}
		}
		return nil
	}
}
