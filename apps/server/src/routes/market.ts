import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  candleSchema,
  candlesQuery,
  errorResponses,
  exchangeListSchema,
  marketQuery,
  marketSchema,
  okSchema,
  orderBookSchema,
  symbolParams,
  tickerSchema,
} from '@kairos/contract';
import { currentUser } from '../plugins/auth';

const tags = ['market'];

const marketRoutes: FastifyPluginAsyncZod = async (app) => {
  const market = app.services.market;
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/market/exchanges',
    { schema: { tags, response: { 200: okSchema(exchangeListSchema), ...errorResponses } } },
    async () => ({
      success: true as const,
      results: app.services.venues.exchanges(),
    }),
  );

  app.get(
    '/market/pairs',
    {
      schema: {
        tags,
        querystring: marketQuery,
        response: { 200: okSchema(z.array(marketSchema)), ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      results: await market.pairs(currentUser(request), request.query.accountId),
    }),
  );

  app.get(
    '/market/:symbol',
    {
      schema: {
        tags,
        params: symbolParams,
        querystring: marketQuery,
        response: { 200: okSchema(tickerSchema), ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      results: await market.ticker(currentUser(request), request.params.symbol, request.query.accountId),
    }),
  );

  app.get(
    '/market/:symbol/orderbook',
    {
      schema: {
        tags,
        params: symbolParams,
        querystring: marketQuery,
        response: { 200: okSchema(orderBookSchema), ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      results: await market.orderBook(currentUser(request), request.params.symbol, request.query.accountId),
    }),
  );

  app.get(
    '/market/:symbol/candles',
    {
      schema: {
        tags,
        params: symbolParams,
        querystring: candlesQuery,
        response: { 200: okSchema(z.array(candleSchema)), ...errorResponses },
      },
    },
    async (request) => ({
      success: true as const,
      results: await market.candles(
        currentUser(request),
        request.params.symbol,
        request.query.timeframe,
        request.query.limit,
        request.query.accountId,
      ),
    }),
  );
};

export default marketRoutes;
