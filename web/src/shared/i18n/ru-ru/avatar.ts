import type { Resources } from '../en-gb.ts';

export const avatar: Resources['avatar'] = {
  drop: 'Перетащите фото сюда или нажмите, чтобы выбрать',
  limits: 'JPEG, до 200 КБ',
  remove: 'Удалить фото',
  wrongType: 'Принимаются только изображения JPEG',
  tooBig: 'Изображение больше 200 КБ',
  changed: 'Фото изменено',
};
