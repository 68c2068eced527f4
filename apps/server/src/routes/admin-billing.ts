import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  billingInvoicesQuery,
  billingPeriodBody,
  billingPlanUpdateBody,
  billingRecordEventSchema,
  billingRecordSchema,
  billingRecordsQuery,
  billingUserDetailSchema,
  billingUserQuery,
  billingUserSchema,
  billingUsersQuery,
  errorResponses,
  invoiceCreateBody,
  invoiceCreateResultSchema,
  invoicePayBody,
  invoiceSchema,
  invoiceVoidBody,
  ledgerAdjustmentBody,
  ledgerAdjustmentListItemSchema,
  ledgerAdjustmentSchema,
  ledgerAdjustmentsQuery,
  monthlyProcessResultSchema,
  okSchema,
  skipTakeSchema,
} from '@kairos/contract';
import { adminActor, guardAdminRoutes } from './admin-guard';

const tags = ['admin: billing'];
const invoiceParams = z.object({ id: z.string().uuid('Invoice not found') });
const recordParams = z.object({ id: z.string().uuid('Billing record not found') });

const adminBillingRoutes: FastifyPluginAsyncZod = async (app) => {
  const billing = app.services.billing;
  guardAdminRoutes(app);

  app.get(
    '/admin/billing/users',
    {
      schema: {
        tags,
        querystring: billingUsersQuery,
        response: { 200: skipTakeSchema(billingUserSchema), ...errorResponses },
      },
    },
    async (request) => ({ success: true as const, ...(await billing.listUsers(request.query)) }),
  );

  app.get(
    '/admin/billing/user',
    {
      schema: {
        tags,
        querystring: billingUserQuery,
        response: { 200: okSchema(billingUserDetailSchema), ...errorResponses },
      },
    },
    async (request) => ({ success: true as const, results: await billing.userDetail(request.query.userId) }),
  );

  app.put(
    '/admin/billing/user',
    {
      schema: {
        tags,
        body: billingPlanUpdateBody,
        response: { 200: okSchema(billingUserSchema), ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      results: await billing.updatePlan(adminActor(request), request.body),
    }),
  );

  app.get(
    '/admin/billing/records',
    {
      schema: {
        tags,
        querystring: billingRecordsQuery,
        response: { 200: skipTakeSchema(billingRecordSchema), ...errorResponses },
      },
    },
    async (request) => ({ success: true as const, ...(await billing.listRecords(request.query)) }),
  );

  app.get(
    '/admin/billing/records/:id/events',
    {
      schema: {
        tags,
        summary: 'The ledger events a month record billed, with the rate each was converted at',
        params: recordParams,
        response: { 200: okSchema(z.array(billingRecordEventSchema)), ...errorResponses },
      },
    },
    async (request) => ({ success: true as const, results: await billing.recordEvents(request.params.id) }),
  );

  app.post(
    '/admin/ledger/adjustments',
    {
      schema: {
        tags,
        summary: "A correction of a user's billed profit: a new ledger event (never an edit), audited",
        body: ledgerAdjustmentBody,
        response: { 201: okSchema(ledgerAdjustmentSchema), ...errorResponses },
      },
    },
    async (request, reply) => {
      const results = await billing.addAdjustment(adminActor(request), request.body);
      return reply.status(201).send({ success: true as const, results });
    },
  );

  app.get(
    '/admin/ledger/adjustments',
    {
      schema: {
        tags,
        summary: 'The ledger adjustments made, newest first, optionally of one user',
        querystring: ledgerAdjustmentsQuery,
        response: { 200: skipTakeSchema(ledgerAdjustmentListItemSchema), ...errorResponses },
      },
    },
    async (request) => ({ success: true as const, ...(await billing.listAdjustments(request.query)) }),
  );

  app.get(
    '/admin/billing/invoices',
    {
      schema: {
        tags,
        querystring: billingInvoicesQuery,
        response: { 200: skipTakeSchema(invoiceSchema), ...errorResponses },
      },
    },
    async (request) => ({ success: true as const, ...(await billing.listInvoices(request.query)) }),
  );

  app.post(
    '/admin/billing/monthly/process',
    {
      schema: {
        tags,
        body: billingPeriodBody,
        response: { 200: okSchema(monthlyProcessResultSchema), ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      results: await billing.processMonthly(adminActor(request), request.body),
    }),
  );

  app.post(
    '/admin/billing/invoice/create',
    {
      schema: {
        tags,
        body: invoiceCreateBody,
        response: {
          200: okSchema(invoiceCreateResultSchema),
          201: okSchema(invoiceCreateResultSchema),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const results = await billing.createInvoice(adminActor(request), request.body);
      return reply.status(results.created ? 201 : 200).send({ success: true as const, results });
    },
  );

  app.post(
    '/admin/billing/invoices/:id/pay',
    {
      schema: {
        tags,
        params: invoiceParams,
        body: invoicePayBody,
        response: { 200: okSchema(invoiceSchema), ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      results: await billing.payInvoice(adminActor(request), request.params.id, request.body ?? {}),
    }),
  );

  app.post(
    '/admin/billing/invoices/:id/void',
    {
      schema: {
        tags,
        params: invoiceParams,
        body: invoiceVoidBody,
        response: { 200: okSchema(invoiceSchema), ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      results: await billing.voidInvoice(adminActor(request), request.params.id, request.body.reason),
    }),
  );
};

export default adminBillingRoutes;
