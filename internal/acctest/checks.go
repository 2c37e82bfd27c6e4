package acctest

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
)

// RecordRef returns the project and config id of the resource at addr.
func RecordRef(s *terraform.State, addr string) (string, int64, error) {
	rs, ok := s.RootModule().Resources[addr]
	if !ok {
		return "", 0, fmt.Errorf("%s is not in state", addr)
	}
	id, err := strconv.ParseInt(rs.Primary.Attributes["id"], 10, 64)
	if err != nil {
		return "", 0, fmt.Errorf("%s: id %q: %w", addr, rs.Primary.Attributes["id"], err)
	}
	return rs.Primary.Attributes["project_id"], id, nil
}

// CaptureID stores the config id of the resource at addr, for later steps
// that act on it behind Terraform's back.
func CaptureID(addr string, id *int64) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		_, got, err := RecordRef(s, addr)
		*id = got
		return err
	}
}

// CheckAPIRecord retrieves the record of the resource at addr from the API
// (with the full key) and runs check on it: what the service holds, not
// only what Terraform believes.
func CheckAPIRecord(t *testing.T, coll client.Collection, addr string, check func(*client.Record) error) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		project, id, err := RecordRef(s, addr)
		if err != nil {
			return err
		}
		rec, err := API(t).Get(context.Background(), project, coll, id)
		if err != nil {
			return fmt.Errorf("%s: retrieving config %d: %w", addr, id, err)
		}
		if err := check(rec); err != nil {
			return fmt.Errorf("%s: config %d on the API: %w", addr, id, err)
		}
		return nil
	}
}

// CheckDestroyed is a CheckDestroy: every resource of typeName that was in
// state must be gone from the API or soft-deleted (deleted=true, and so not
// enabled). The live DELETE only disables, so "disabled" is not enough.
func CheckDestroyed(t *testing.T, typeName string, coll client.Collection) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		for addr, rs := range s.RootModule().Resources {
			if rs.Type != typeName {
				continue
			}
			project, id, err := RecordRef(s, addr)
			if err != nil {
				return err
			}
			rec, err := API(t).Get(context.Background(), project, coll, id)
			switch {
			case client.IsNotFound(err):
				continue
			case err != nil:
				return fmt.Errorf("%s: retrieving config %d: %w", addr, id, err)
			case !rec.Deleted || rec.Enabled:
				return fmt.Errorf("%s: config %d is still active on the API (deleted=%v, enabled=%v)", addr, id, rec.Deleted, rec.Enabled)
			}
		}
		return nil
	}
}

// CheckID checks that the resource at addr has the config id *id (same) or
// another one.
func CheckID(addr string, id *int64, same bool) resource.TestCheckFunc {
	return resource.TestCheckResourceAttrWith(addr, "id", func(v string) error {
		if (v == strconv.FormatInt(*id, 10)) != same {
			if same {
				return fmt.Errorf("id %s, want %d (the same config)", v, *id)
			}
			return fmt.Errorf("id %s is still %d, want a new config", v, *id)
		}
		return nil
	})
}

// ImportID returns the import ID of the resource at addr: "project_id/id",
// or the id alone.
func ImportID(addr string, withProject bool) resource.ImportStateIdFunc {
	return func(s *terraform.State) (string, error) {
		rs, ok := s.RootModule().Resources[addr]
		if !ok {
			return "", fmt.Errorf("%s is not in state", addr)
		}
		if withProject {
			return rs.Primary.Attributes["project_id"] + "/" + rs.Primary.ID, nil
		}
		return rs.Primary.ID, nil
	}
}

// MustCreate creates a record in the test project "1" behind Terraform's
// back.
func MustCreate(t *testing.T, c *client.Client, coll client.Collection, in client.RecordInput) *client.Record {
	t.Helper()
	rec, err := c.Create(context.Background(), "1", coll, in)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}
