export const roleDescriptions = {
  OPERATOR: 'Handles the flow of inquiries',
  SUPERVISOR: 'Controls the operator team and sees all inquiries',
  ADMINISTRATOR: 'Configures the platform',
};
