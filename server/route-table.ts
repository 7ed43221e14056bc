import { showAgeGroups } from './age-groups/show-age-groups.ts';
import { updateAgeGroups } from './age-groups/update-age-groups.ts';
import { listAmenities } from './amenities/list-amenities.ts';
import { setPropertyAmenities } from './amenities/set-property-amenities.ts';
import { setRoomTypeAmenities } from './amenities/set-room-type-amenities.ts';
import { showPropertyAmenities } from './amenities/show-property-amenities.ts';
import { showRoomTypeAmenities } from './amenities/show-room-type-amenities.ts';
import { bookingsAnalytics } from './analytics/bookings-report.ts';
import { campaignsAnalytics } from './analytics/campaigns-report.ts';
import { funnelAnalytics } from './analytics/funnel-report.ts';
import { overviewAnalytics } from './analytics/overview-report.ts';
import { paceAnalytics } from './analytics/pace-report.ts';
import { trafficAnalytics } from './analytics/traffic-report.ts';
import { createAutoEmailTemplate } from './auto-email-templates/create-template.ts';
import { deleteAutoEmailTemplate } from './auto-email-templates/delete-template.ts';
import { listAutoEmailEvents } from './auto-email-templates/list-template-events.ts';
import { listAutoEmailTemplates } from './auto-email-templates/list-templates.ts';
import { previewAutoEmailTemplate } from './auto-email-templates/preview-template.ts';
import { showAutoEmailTemplate } from './auto-email-templates/show-template.ts';
import { updateAutoEmailTemplate } from './auto-email-templates/update-template.ts';
import { listBookingButtons } from './booking-buttons/list-booking-buttons.ts';
import { ackBooking } from './bookings/ack-booking.ts';
import { ackRevisionRoute } from './bookings/ack-revision.ts';
import { assignRoomRoute } from './bookings/assign-room.ts';
import { cancelBookingRoute } from './bookings/cancel-booking.ts';
import { createAgencyBooking } from './bookings/create-agency-booking.ts';
import { createBookingRoute } from './bookings/create-booking.ts';
import { listBookingsRoute } from './bookings/list-bookings.ts';
import { listRevisionFeed } from './bookings/list-revision-feed.ts';
import { receiveInboundWebhook } from './bookings/receive-inbound-webhook.ts';
import { recordNoShowRoute } from './bookings/record-no-show.ts';
import { showBooking } from './bookings/show-booking.ts';
import { showBookingHealth } from './bookings/show-booking-health.ts';
import { createCancellationPolicyRoute } from './cancellation-policies/create-cancellation-policy.ts';
import { deleteCancellationPolicyRoute } from './cancellation-policies/delete-cancellation-policy.ts';
import { listCancellationPolicies } from './cancellation-policies/list-cancellation-policies.ts';
import { showCancellationPolicy } from './cancellation-policies/show-cancellation-policy.ts';
import { updateCancellationPolicyRoute } from './cancellation-policies/update-cancellation-policy.ts';
import { createCatalogueSync } from './catalogue/create-catalogue-sync.ts';
import { replaceCatalogue } from './catalogue/replace-catalogue.ts';
import { showCatalogue } from './catalogue/show-catalogue.ts';
import { showCatalogueSync } from './catalogue/show-catalogue-sync.ts';
import { listChangelog } from './changelog/list-changelog.ts';
import { createContentPage } from './content-pages/create-content-page.ts';
import { deleteContentPage } from './content-pages/delete-content-page.ts';
import { listContentPages } from './content-pages/list-content-pages.ts';
import { showContentPage } from './content-pages/show-content-page.ts';
import { showGuestGuide } from './content-pages/show-guest-guide.ts';
import { updateContentPage } from './content-pages/update-content-page.ts';
import { updateGuestGuide } from './content-pages/update-guest-guide.ts';
import type { RouteDefinition, RouteSpec } from './core/routes/route.ts';
import { createExtraServiceRoute } from './extra-services/create-extra-service.ts';
import { deleteExtraServiceRoute } from './extra-services/delete-extra-service.ts';
import { listExtraServices } from './extra-services/list-extra-services.ts';
import { showExtraService } from './extra-services/show-extra-service.ts';
import { updateExtraServiceRoute } from './extra-services/update-extra-service.ts';
import { deleteGalleryImage } from './gallery/delete-image.ts';
import { listGalleryImages } from './gallery/list-images.ts';
import { registerGalleryImage } from './gallery/register-image.ts';
import { setPropertyImages } from './gallery/set-property-images.ts';
import { setRoomTypeImages } from './gallery/set-room-type-images.ts';
import { showGalleryImage } from './gallery/show-image.ts';
import { uploadGalleryImages } from './gallery/upload-images.ts';
import { createGuestFeedback } from './guest-feedback/create-guest-feedback.ts';
import { deleteGuestFeedback } from './guest-feedback/delete-guest-feedback.ts';
import { listGuestFeedback } from './guest-feedback/list-guest-feedback.ts';
import { showGuestFeedback } from './guest-feedback/show-guest-feedback.ts';
import { updateGuestFeedback } from './guest-feedback/update-guest-feedback.ts';
import { pushAvailabilityRoute } from './inventory/push-availability.ts';
import { pushRatesRoute } from './inventory/push-rates.ts';
import { pushRestrictionsRoute } from './inventory/push-restrictions.ts';
import { showAvailabilityRoute } from './inventory/show-availability.ts';
import { issueToken } from './oauth/issue-token.ts';
import { showJwks } from './oauth/show-jwks.ts';
import { createPaymentPolicyRoute } from './payment-policies/create-payment-policy.ts';
import { deletePaymentPolicyRoute } from './payment-policies/delete-payment-policy.ts';
import { listPaymentPolicies } from './payment-policies/list-payment-policies.ts';
import { showPaymentPolicy } from './payment-policies/show-payment-policy.ts';
import { updatePaymentPolicyRoute } from './payment-policies/update-payment-policy.ts';
import { listPermissions } from './permissions/list-permissions.ts';
import { createPromotionRoute } from './promotions/create-promotion.ts';
import { deletePromotionRoute } from './promotions/delete-promotion.ts';
import { listPromotions } from './promotions/list-promotions.ts';
import { showPromotion } from './promotions/show-promotion.ts';
import { updatePromotionRoute } from './promotions/update-promotion.ts';
import { createProperty } from './properties/create-property.ts';
import { listProperties } from './properties/list-properties.ts';
import { listPropertyTypes } from './properties/list-property-types.ts';
import { showProperty } from './properties/show-property.ts';
import { updateProperty } from './properties/update-property.ts';
import { createPropertyGroupRoute } from './property-groups/create-property-group.ts';
import { listPropertyGroups } from './property-groups/list-property-groups.ts';
import { showPropertyGroup } from './property-groups/show-property-group.ts';
import { updatePropertyGroupRoute } from './property-groups/update-property-group.ts';
import { createRatePlan } from './rate-plans/create-rate-plan.ts';
import { listRatePlans } from './rate-plans/list-rate-plans.ts';
import { setPricingModel } from './rate-plans/set-pricing-model.ts';
import { showRatePlan } from './rate-plans/show-rate-plan.ts';
import { updateRatePlan } from './rate-plans/update-rate-plan.ts';
import { showRates } from './rates/show-rates.ts';
import { writeRatesRoute } from './rates/write-rates.ts';
import { listPropertyReviews } from './reviews/list-reviews.ts';
import { replyReview } from './reviews/reply-review.ts';
import { showReview } from './reviews/show-review.ts';
import { createRoomType } from './room-types/create-room-type.ts';
import { listRoomTypes } from './room-types/list-room-types.ts';
import { showRoomType } from './room-types/show-room-type.ts';
import { updateRoomType } from './room-types/update-room-type.ts';
import { createSpecialOfferRoute } from './special-offers/create-special-offer.ts';
import { deleteSpecialOfferRoute } from './special-offers/delete-special-offer.ts';
import { listSpecialOffersRoute } from './special-offers/list-special-offers.ts';
import { updateSpecialOfferRoute } from './special-offers/update-special-offer.ts';
import { createSubscriptionRoute } from './subscriptions/create-subscription.ts';
import { deleteSubscriptionRoute } from './subscriptions/delete-subscription.ts';
import { enableSubscriptionRoute } from './subscriptions/enable-subscription.ts';
import { listSubscriptionsRoute } from './subscriptions/list-subscriptions.ts';
import { rotateSubscriptionSecret } from './subscriptions/rotate-subscription-secret.ts';
import { showSubscription } from './subscriptions/show-subscription.ts';
import { updateSubscriptionRoute } from './subscriptions/update-subscription.ts';
import { listDeliveriesRoute } from './webhooks/list-deliveries.ts';
import { listEventTypes } from './webhooks/list-event-types.ts';
import { redeliverDelivery } from './webhooks/redeliver-delivery.ts';
import { showWebhookHealth } from './webhooks/show-webhook-health.ts';

/**
 * The route table: every modern operation, one definition per file beside its handler. The app mounts this
 * list; GET /permissions, endpoint_scopes validation, the auth walk and the fuzz test read it.
 */
export const routeTable: readonly RouteDefinition[] = [
  // Authentication and discovery
  issueToken,
  showJwks,
  listPermissions,
  listChangelog,

  // Properties and catalogue
  listProperties,
  showProperty,
  createProperty,
  updateProperty,
  listPropertyTypes,
  // Property groups (scope groups.manage, account-scoped credentials)
  listPropertyGroups,
  showPropertyGroup,
  createPropertyGroupRoute,
  updatePropertyGroupRoute,
  showCatalogue,
  replaceCatalogue,
  createCatalogueSync,
  showCatalogueSync,

  // Bookings (spec 4.5)
  listRevisionFeed,
  ackRevisionRoute,
  listBookingsRoute,
  showBookingHealth,
  showBooking,
  cancelBookingRoute,
  recordNoShowRoute,
  createBookingRoute,
  createAgencyBooking,
  ackBooking,
  assignRoomRoute,
  receiveInboundWebhook,

  // Subscriptions and webhooks (spec 4.6)
  createSubscriptionRoute,
  listSubscriptionsRoute,
  showSubscription,
  updateSubscriptionRoute,
  deleteSubscriptionRoute,
  rotateSubscriptionSecret,
  enableSubscriptionRoute,
  listEventTypes,
  showWebhookHealth,
  listDeliveriesRoute,
  redeliverDelivery,

  // Room types and rate plans
  listRoomTypes,
  showRoomType,
  createRoomType,
  updateRoomType,
  listRatePlans,
  showRatePlan,
  createRatePlan,
  updateRatePlan,
  setPricingModel,

  // Inventory and rates
  showRates,
  writeRatesRoute,
  showAvailabilityRoute,
  pushAvailabilityRoute,
  pushRatesRoute,
  pushRestrictionsRoute,

  // Configuration surfaces (spec 4.7)
  listPaymentPolicies,
  showPaymentPolicy,
  createPaymentPolicyRoute,
  updatePaymentPolicyRoute,
  deletePaymentPolicyRoute,
  listCancellationPolicies,
  showCancellationPolicy,
  createCancellationPolicyRoute,
  updateCancellationPolicyRoute,
  deleteCancellationPolicyRoute,
  showAgeGroups,
  updateAgeGroups,
  listExtraServices,
  showExtraService,
  createExtraServiceRoute,
  updateExtraServiceRoute,
  deleteExtraServiceRoute,
  listPromotions,
  showPromotion,
  createPromotionRoute,
  updatePromotionRoute,
  deletePromotionRoute,
  listBookingButtons,
  listSpecialOffersRoute,
  createSpecialOfferRoute,
  updateSpecialOfferRoute,
  deleteSpecialOfferRoute,

  // Configuration surfaces II: gallery
  uploadGalleryImages,
  registerGalleryImage,
  listGalleryImages,
  showGalleryImage,
  deleteGalleryImage,
  setPropertyImages,
  setRoomTypeImages,
  // Configuration surfaces II: content pages and the guest guide
  listContentPages,
  showContentPage,
  createContentPage,
  updateContentPage,
  deleteContentPage,
  showGuestGuide,
  updateGuestGuide,
  // Configuration surfaces II: guest feedback
  listGuestFeedback,
  showGuestFeedback,
  createGuestFeedback,
  updateGuestFeedback,
  deleteGuestFeedback,
  // Configuration surfaces II: reviews
  listPropertyReviews,
  showReview,
  replyReview,
  // Configuration surfaces II: auto-email templates (owner-scoped)
  listAutoEmailEvents,
  listAutoEmailTemplates,
  showAutoEmailTemplate,
  createAutoEmailTemplate,
  updateAutoEmailTemplate,
  deleteAutoEmailTemplate,
  previewAutoEmailTemplate,
  // Configuration surfaces II: amenities (OTA HAC and RMA codes)
  listAmenities,
  showPropertyAmenities,
  setPropertyAmenities,
  showRoomTypeAmenities,
  setRoomTypeAmenities,
  // Analytics reports (scope analytics.read)
  overviewAnalytics,
  trafficAnalytics,
  funnelAnalytics,
  campaignsAnalytics,
  bookingsAnalytics,
  paceAnalytics,
];

/** Every route's spec (what GET /permissions, endpoint_scopes and the auth walk read): the route table. */
export const routeCatalogue: readonly RouteSpec[] = routeTable;
