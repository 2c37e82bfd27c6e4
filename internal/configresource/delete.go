package configresource

import (
	"context"
	"fmt"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

// softDelete removes config id by PATCH {"deleted": true} through coll: the
// live service's DELETE only disables a config, while the deleted flag
// removes it (and disables it).
func softDelete(ctx context.Context, c *client.Client, project string, coll client.Collection, id int64) error {
	_, err := c.Update(ctx, project, coll, id, client.RecordInput{Deleted: client.Some(true)})
	return err
}

// deletedAgainNote tells what became of config id, created on the way to
// an error: deleted again, or not (err), with what to do then (advice).
func deletedAgainNote(id int64, err error, advice string) string {
	if err == nil {
		return fmt.Sprintf("\n\nThe config created on the way (id %d) has been deleted again.", id)
	}
	return fmt.Sprintf("\n\nThe config created on the way (id %d) could not be deleted again: %s\n%s",
		id, framework.DescribeError(err), advice)
}
