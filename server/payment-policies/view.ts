import type { PaymentPolicyRow } from './service.ts';

export function paymentPolicyView(p: PaymentPolicyRow) {
  return {
    id: p.external_id,
    name: p.name,
    name_tr: p.name_tr,
    pay_type: p.pay_type,
    num_days: p.num_days,
    date: p.date,
    percent: Number(p.percent),
    is_placeholder: p.is_placeholder,
    created_at: p.created_at.toISOString(),
    updated_at: p.updated_at.toISOString(),
  };
}
