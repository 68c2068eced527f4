import { healthResponseSchema, type HealthResponse } from '@kairos/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** The workers' heartbeat as GET /healthz reports it; null when the server could not say. */
export async function getWorkerHealth(): Promise<HealthResponse['worker'] | null> {
  try {
    return healthResponseSchema.parse(await api.get<unknown>('/healthz')).worker;
  } catch {
    return null;
  }
}

export function useWorkerHealth() {
  return useQuery({ queryKey: ['health', 'worker'], queryFn: getWorkerHealth, refetchInterval: 30_000 });
}
