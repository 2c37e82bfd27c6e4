package localapi

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"
)

const hogColumns = `id, team_id, plugin_id, type, name, description, enabled, template_id, source_config_id, inputs, filters, execution_order, created_at`

// addHogFunction stores hf in the write's transaction.
func (tx *storeTx) addHogFunction(hf *HogFunction) error {
	var source any
	if hf.SourceConfigID != nil {
		source = *hf.SourceConfigID
	}
	_, err := tx.st.insertHog.ExecContext(tx.ctx, hf.ID, hf.Project, hf.Plugin, hf.Type, hf.Name, hf.Description, hf.Enabled,
		hf.TemplateID, source, string(hf.Inputs), string(hf.Filters), hf.ExecutionOrder, hf.CreatedAt.UnixMicro())
	return err
}

func (st *store) hogFunctions(ctx context.Context) ([]HogFunction, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	return queryAll(ctx, st.hogs, scanHogFunction)
}

func scanHogFunction(row scanner) (HogFunction, error) {
	var hf HogFunction
	var source sql.NullInt64
	var inputs, filters string
	var created int64
	err := row.Scan(&hf.ID, &hf.Project, &hf.Plugin, &hf.Type, &hf.Name, &hf.Description, &hf.Enabled,
		&hf.TemplateID, &source, &inputs, &filters, &hf.ExecutionOrder, &created)
	if source.Valid {
		hf.SourceConfigID = &source.Int64
	}
	hf.Inputs, hf.Filters, hf.CreatedAt = json.RawMessage(inputs), json.RawMessage(filters), time.UnixMicro(created).UTC()
	return hf, err
}

func (st *store) resetHogFunctions(ctx context.Context) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	_, err := st.clearHogs.ExecContext(ctx)
	return err
}
