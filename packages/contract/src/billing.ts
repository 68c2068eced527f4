import { z } from 'zod';
import { billingCurrentMonthSchema, billingPlanSchema, billingRecordSchema, invoiceSchema } from './admin';

// ─── a user's own billing (issue 21) ────────────────────────────────────────────────────────────
/** One processed month of the user's: profit, high-water mark, fee and where the fee stands (USDT). */
export const myBillingMonthSchema = billingRecordSchema.omit({ userId: true, userEmail: true });
export type MyBillingMonth = z.infer<typeof myBillingMonthSchema>;

/** One invoice of the user's (how an admin recorded its payment stays with the admin). */
export const myInvoiceSchema = invoiceSchema.omit({
  userId: true,
  userEmail: true,
  provider: true,
  providerReference: true,
});
export type MyInvoice = z.infer<typeof myInvoiceSchema>;

/** `GET /api/billing`: the signed-in user's plan, the month in progress, months billed and invoices. */
export const myBillingSchema = z.object({
  /** null: no plan, nothing is charged. */
  plan: billingPlanSchema.nullable(),
  currentMonth: billingCurrentMonthSchema,
  /** Newest first. */
  months: z.array(myBillingMonthSchema),
  /** Newest first. */
  invoices: z.array(myInvoiceSchema),
});
export type MyBilling = z.infer<typeof myBillingSchema>;
