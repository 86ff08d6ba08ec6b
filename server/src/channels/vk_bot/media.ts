/** VK's largest document (200 MB); photos are far smaller. */
export const VK_MEDIA_MAX = 200 * 1024 * 1024;
