export const avatar = {
  drop: 'Drag a photo here or click to choose',
  limits: 'JPEG, up to 200 KB',
  remove: 'Remove photo',
  wrongType: 'Only JPEG pictures are accepted',
  tooBig: 'The picture is bigger than 200 KB',
  changed: 'Photo changed',
};
