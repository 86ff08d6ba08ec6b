import type {
  BillingDocumentDto,
  FinanceDto,
  OrganisationDto,
  PaymentDto,
  PlanDto,
} from '@smartconnect/contracts';
import { useQuery } from '@tanstack/react-query';
import { get, patch, post, put } from '../../shared/api/client.ts';
import { billingKeys } from './keys.ts';

type Page<T> = { items: T[]; total: number };

export const useOrganisations = () =>
  useQuery({
    queryKey: billingKeys.organisations,
    queryFn: () => get<Page<OrganisationDto>>('/api/organisations'),
  });
export const usePlans = () =>
  useQuery({ queryKey: billingKeys.plans, queryFn: () => get<Page<PlanDto>>('/api/plans') });
export const useFinance = () =>
  useQuery({ queryKey: billingKeys.finance, queryFn: () => get<FinanceDto>('/api/finance') });
export const useFinancePlans = () =>
  useQuery({ queryKey: billingKeys.financePlans, queryFn: () => get<Page<PlanDto>>('/api/finance/plans') });
export const usePayments = () =>
  useQuery({
    queryKey: billingKeys.payments,
    queryFn: () => get<Page<PaymentDto>>('/api/finance/payments'),
  });
export const useDocuments = () =>
  useQuery({
    queryKey: billingKeys.documents,
    queryFn: () => get<Page<BillingDocumentDto>>('/api/finance/documents'),
  });

export type OrganisationInput = {
  login: string;
  name: string;
  adminEmail: string;
  language: 'eng' | 'rus';
  planId: string;
  instance?: string | null;
  status?: 'active' | 'deactivated';
  firstTariffDay?: string;
  balance?: number;
  billingMode?: 'prepaid' | 'postpaid';
};
export const createOrganisation = (body: OrganisationInput) =>
  post<OrganisationDto>('/api/organisations', body);
export const updateOrganisation = (id: string, body: Partial<OrganisationInput>) =>
  patch<OrganisationDto>(`/api/organisations/${id}`, body);
export const extendOrganisation = (id: string) => post<OrganisationDto>(`/api/organisations/${id}/extend`);

export type PlanInput = Omit<PlanDto, 'id' | 'organisations'>;
export const createPlan = (body: PlanInput) => post<PlanDto>('/api/plans', body);
export const updatePlan = (id: string, body: PlanInput) => patch<PlanDto>(`/api/plans/${id}`, body);

export const changeOwnPlan = (planId: string) => put<FinanceDto>('/api/finance/plan', { planId });
export const topUp = (amount: number) =>
  post<{ paymentId: string; confirmationUrl: string }>('/api/finance/top-up', { amount });
export const refreshPayment = (id: string) => post<PaymentDto>(`/api/finance/payments/${id}/refresh`);
