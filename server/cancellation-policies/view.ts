import type { CancellationPolicyRow } from './service.ts';

export function cancellationPolicyView(p: CancellationPolicyRow) {
  return {
    id: p.external_id,
    name: p.name,
    name_tr: p.name_tr,
    data: p.rules.map((r) => ({
      c_type: r.c_type,
      p_type: r.p_type,
      p_days: r.p_days ?? null,
      p_date: r.p_date ?? null,
      p_value: r.p_value ?? null,
    })),
    is_placeholder: p.is_placeholder,
    created_at: p.created_at.toISOString(),
    updated_at: p.updated_at.toISOString(),
  };
}
