/**
 * The payment port (DESIGN §8). Billing never talks to a payment service directly: it asks the
 * configured provider to collect an invoice, and records what the provider answered. The default,
 * manual provider collects nothing — the invoice stays open until an admin records the payment.
 * A card/Stripe adapter implements the same two methods.
 */
export type InvoiceToCharge = {
  id: string;
  number: string;
  userId: string;
  userEmail: string;
  amount: string;
  currency: 'USDT' | 'USD';
  dueDate: string;
};

export type ChargeResult =
  /** Collected: the invoice becomes paid with this reference. */
  | { status: 'paid'; reference: string }
  /** Started or left to a person: the invoice stays open. */
  | { status: 'pending'; reference: string | null; message: string }
  | { status: 'failed'; message: string };

export interface PaymentProvider {
  /** Stored on each invoice: who is expected to collect it. */
  readonly name: string;
  /** Auto charge: asked once per invoice when a month is processed for a user with auto charge on. */
  charge(invoice: InvoiceToCharge): Promise<ChargeResult>;
  /** An admin says the money arrived (bank transfer, on-chain): returns the reference to keep. */
  recordPayment(
    invoice: InvoiceToCharge,
    input: { reference?: string; adminId: string | null },
  ): Promise<string>;
}

/** The default: no automatic collection; an admin records each payment by hand. */
export function createManualPaymentProvider(): PaymentProvider {
  return {
    name: 'manual',
    async charge() {
      return { status: 'pending', reference: null, message: 'Awaiting a payment recorded by an admin' };
    },
    async recordPayment(_invoice, { reference, adminId }) {
      return reference ?? `manual:${adminId ?? 'system'}`;
    },
  };
}
