export { WebhookDeliverer, type DeliveryStatus, type DeliveryView, type WebhookConfig } from './deliverer';
export { MAX_RETRY_DELAY_MS, deliverySchedule, retryDelayMs } from './schedule';
