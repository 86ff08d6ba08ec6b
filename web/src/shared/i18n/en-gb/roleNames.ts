export const roleNames = { OPERATOR: 'Operator', SUPERVISOR: 'Supervisor', ADMINISTRATOR: 'Administrator' };
